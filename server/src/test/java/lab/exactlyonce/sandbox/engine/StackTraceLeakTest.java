package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Calls that may reach Throwable.getStackTrace/printStackTrace other than a plain virtual call (through an
 * interface, a super call, a super method reference): the sandbox's frames (MainCall, reflection, Thread with the
 * JDK's line numbers) must never reach the learner. Calls that cannot reach a Throwable run as written.
 */
class StackTraceLeakTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  static Stream<Arguments> leaks() {
    return Stream.of(
        arguments("getStackTrace through a learner interface that redeclares it (invokeinterface)",
            program("Leak p = new E(); for (StackTraceElement s : p.getStackTrace()) System.out.println(s);",
                "interface Leak { StackTraceElement[] getStackTrace(); }\n  static class E extends Exception implements Leak { }")),
        arguments("printStackTrace through a learner interface that redeclares it (invokeinterface)",
            program("Leak p = new E(); p.printStackTrace();",
                "interface Leak { void printStackTrace(); }\n  static class E extends Exception implements Leak { }")),
        arguments("super.getStackTrace() in a Throwable subclass (invokespecial)",
            program("new E().leak();",
                "static class E extends Exception { void leak() { for (StackTraceElement s : super.getStackTrace())"
                    + " System.out.println(s); } }")),
        arguments("super.printStackTrace() in a Throwable subclass (invokespecial)",
            program("new E().leak();", "static class E extends Exception { void leak() { super.printStackTrace(); } }")),
        arguments("a super::getStackTrace method reference (a synthetic lambda with invokespecial)",
            program("new E().leak();",
                "static class E extends Exception { void leak() { java.util.function.Supplier<StackTraceElement[]> s ="
                    + " super::getStackTrace; for (StackTraceElement e : s.get()) System.out.println(e); } }")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leaks")
  void shows_no_frame_of_the_sandbox(String attack, String source) {
    RunResult result = RUNNER.run(source, Snippets.testLimits());
    String seen = result.stdout() + result.stderr() + result.diagnostics();

    assertFalse(seen.contains("lab.exactlyonce") || seen.contains("jdk.internal") || seen.contains("Thread.run"),
        () -> attack + " leaked the sandbox's frames: " + result);
  }

  /** The rewrite matches by name and descriptor alone: on a class that is no Throwable it makes unverifiable code. */
  @Test
  void a_getStackTrace_of_a_class_that_is_no_throwable_runs_as_written() {
    RunResult result = RUNNER.run(program("System.out.println(new F().getStackTrace() == null);",
        "static class F { StackTraceElement[] getStackTrace() { return null; } }"), Snippets.testLimits());

    assertEquals("true\n", result.stdout(), result::toString);
  }

  /** An interface that declares them may also be implemented by classes that are no Throwable: those run their own. */
  @Test
  void an_interface_call_on_a_class_that_is_no_throwable_runs_its_own_methods() {
    RunResult result = RUNNER.run(program(
        "Leak p = new F(); p.printStackTrace(); p.printStackTrace(System.out); System.out.println(p.getStackTrace().length);",
        "interface Leak { void printStackTrace(); void printStackTrace(java.io.PrintStream out);"
            + " StackTraceElement[] getStackTrace(); }\n"
            + "  static class F implements Leak { public void printStackTrace() { System.out.println(\"own\"); }"
            + " public void printStackTrace(java.io.PrintStream out) { out.println(\"own out\"); }"
            + " public StackTraceElement[] getStackTrace() { return new StackTraceElement[] {"
            + " new StackTraceElement(\"A\", \"b\", \"A.java\", 1)}; } }"), Snippets.testLimits());

    assertEquals("own\nown out\n1\n", result.stdout(), result::toString);
  }
}
