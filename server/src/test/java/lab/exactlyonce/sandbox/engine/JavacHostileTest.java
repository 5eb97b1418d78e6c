package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Attacks on what javac brings: invokedynamic (lambdas, method references, records), the compiler's own reach into
 * files and annotation processors, and its compile time. One row per attack: the snippet, the outcome, the exact
 * first diagnostic and its line (0: not asserted).
 */
class JavacHostileTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  @BeforeAll
  static void warmUp() {
    RUNNER.run(main("Runnable r = () -> { }; r.run();"), Snippets.testLimits());
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        rejected("a lambda whose body calls a forbidden method", main("Runnable r = () -> System.exit(0); r.run();"),
            "java.lang.System.exit", 4),
        rejected("a method reference to System::exit",
            main("java.util.function.IntConsumer exit = System::exit; exit.accept(0);"), "java.lang.System.exit", 4),
        rejected("a method reference to Runtime::exec",
            program("Exec e = Runtime::exec;", "interface Exec { Object run(Runtime r, String command) throws Exception; }"),
            "java.lang.Runtime", 0),
        rejected("a method reference to a method refused on every class",
            program("Waiter w = Object::wait;", "interface Waiter { void await(Object o) throws Exception; }"),
            "java.lang.Object.wait", 4),
        rejected("a method reference that would match a regular expression outside the budget",
            main("java.util.function.BiPredicate<String, String> m = String::matches; m.test(\"a\", \"a\");"),
            "a method reference to java.lang.String.matches (write a lambda that calls it instead, e.g."
                + " s -> s.matches(...))", 4),
        rejected("a method reference that would see the sandbox's frames",
            main("java.util.function.Function<Throwable, Object[]> f = Throwable::getStackTrace;"),
            "a method reference to java.lang.Throwable.getStackTrace (write a lambda that calls it instead, e.g."
                + " s -> s.getStackTrace(...))", 4),
        rejected("a record whose toString reads a field of a forbidden type",
            program("System.out.println(new Holder(null));", "record Holder(Thread thread) { }"), "java.lang.Thread", 0),
        rejected("a serializable lambda, which deserializes through java.lang.invoke",
            main("Runnable r = (Runnable & java.io.Serializable) () -> { }; r.run();"),
            "java.lang.invoke.SerializedLambda", 0),
        arguments("an annotation processor",
            "import javax.annotation.processing.*;\n@SupportedAnnotationTypes(\"*\")\n"
                + "public abstract class Main extends AbstractProcessor {\n"
                + "  public static void main(String[] args) { var x = 1; }\n}\n", Outcome.REJECTED,
            "javax.annotation.processing.* is not allowed in the sandbox (module java.compiler is not available here)", 1),
        arguments("a class of the application, which javac's default class path would show",
            main("lab.exactlyonce.sandbox.engine.SnippetRunner runner = null;"), Outcome.COMPILE_ERROR,
            "there is no class named SnippetRunner in lab.exactlyonce.sandbox.engine (check the spelling, or add an"
                + " import)", 4),
        arguments("a library of the application's class path",
            main("com.fasterxml.jackson.databind.ObjectMapper mapper = null;"), Outcome.COMPILE_ERROR,
            "package com.fasterxml.jackson.databind does not exist", 4),
        arguments("an @-file, as javac's command line would read it", "@/etc/passwd\n", Outcome.COMPILE_ERROR,
            "<identifier> expected", 1));
  }

  private static Arguments rejected(String attack, String source, String api, int line) {
    return arguments(attack, source, Outcome.REJECTED, api + " is not allowed in the sandbox", line);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void is_contained(String attack, String source, Outcome outcome, String message, int line) {
    RunResult result = RUNNER.run(source, Snippets.testLimits());

    assertEquals(outcome, result.status(), () -> attack + ": " + result);
    assertFalse(result.diagnostics().isEmpty(), () -> attack + ": " + result);
    assertEquals(message, result.diagnostics().get(0).message(), () -> attack + ": " + result);
    if (line > 0) assertEquals(line, result.diagnostics().get(0).line(), () -> attack + ": " + result);
    assertTrue(RUNNER.healthy(), attack + " left the runner unhealthy");
  }

  @Test
  void a_type_inference_bomb_is_stopped_at_the_compile_limit() {
    SnippetRunner runner = new SnippetRunner();
    runner.run(main("var warm = List.of(1);"), SandboxLimits.defaults());
    // Each level doubles javac's work: 14 levels take it 40 s, these 20 would take hours.
    String bomb = "null";
    for (int i = 0; i < 20; i++) bomb = "m(b ? " + bomb + " : null)";
    // A clock limit far off, so the CPU time this test is about decides however busy the machine is.
    SandboxLimits limits = new SandboxLimits(2_000, 50_000_000L, 64L << 20, 65536, 65536, 1_000).withWallMillis(600_000);

    RunResult result = runner.run(program("boolean b = true; Object o = " + bomb + ";",
        "static <T> List<T> m(T t) { return null; }"), limits);

    assertEquals(new RunResult(Outcome.TIMEOUT, "", "", List.of(new Diagnostic(0, 0,
        "compiling took longer than 1000 ms: is the source very large?")), result.elapsedMs()), result);
    assertFalse(runner.healthy(), "javac was stopped mid-way: the worker is replaced");
    RunResult after = new SnippetRunner().run(main("var list = List.of(1, 2); System.out.println(list);"), limits);
    assertEquals("[1, 2]\n", after.stdout(), after::toString);
  }

  @Test
  void invokedynamic_with_any_other_bootstrap_is_refused() {
    Handle typeSwitch = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/runtime/SwitchBootstraps", "typeSwitch",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;[Ljava/lang/Object;)"
            + "Ljava/lang/invoke/CallSite;", false);
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
    writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "Main", null, "java/lang/Object", null);
    MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "main", "([Ljava/lang/String;)V",
        null, null);
    m.visitCode();
    m.visitInsn(Opcodes.ACONST_NULL);
    m.visitInsn(Opcodes.ICONST_0);
    m.visitInvokeDynamicInsn("typeSwitch", "(Ljava/lang/Object;I)I", typeSwitch);
    m.visitInsn(Opcodes.POP);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    m.visitEnd();
    writer.visitEnd();

    List<Diagnostic> violations = BytecodeVerifier.verify(Map.of("Main", writer.toByteArray()), "");

    assertEquals(List.of(new Diagnostic(0, 0, "invokedynamic with the bootstrap java.lang.runtime.SwitchBootstraps"
        + ".typeSwitch is not allowed in the sandbox")), violations);
  }
}
