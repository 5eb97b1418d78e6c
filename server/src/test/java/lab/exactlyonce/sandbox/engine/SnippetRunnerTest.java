package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a learner running ordinary code sees. */
class SnippetRunnerTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  private static RunResult run(String source) {
    return RUNNER.run(source, SandboxLimits.defaults());
  }

  @ParameterizedTest
  @ValueSource(strings = {"SinkDemo", "TxnDedupeDemo"})
  void demos_print_exactly_their_expected_lines(String demo) throws IOException {
    String source = resource("/snippets/exactly-once/" + demo + ".java");
    String expected = source.lines().filter(l -> l.startsWith("// Expect: "))
        .map(l -> l.substring("// Expect: ".length()) + "\n").collect(Collectors.joining());

    RunResult result = run(source);

    assertEquals(new RunResult(Outcome.OK, expected, "", List.of(), result.elapsedMs(), result.trace()), result);
    assertTrue(result.trace().size() > 10, "the demo records its trace: " + result.trace());
  }

  @Test
  void standard_output_and_standard_error_are_kept_apart() {
    RunResult result = run(main("System.out.println(\"to out\"); System.err.println(\"to err\"); System.out.print(42);"));

    assertEquals(Outcome.OK, result.status());
    assertEquals("to out\n42", result.stdout());
    assertEquals("to err\n", result.stderr());
  }

  @Test
  void an_uncaught_exception_shows_only_the_learners_frames() {
    RunResult result = run(program("System.out.println(\"before\"); System.out.println(divide(1, 0));",
        "static int divide(int a, int b) { return a / b; }"));

    assertEquals(Outcome.RUNTIME_ERROR, result.status());
    assertEquals("before\n", result.stdout());
    assertEquals("Exception in thread \"main\" java.lang.ArithmeticException: / by zero\n"
        + "\tat Main.divide(Main.java:6)\n"
        + "\tat Main.main(Main.java:4)\n", result.stderr());
    assertEquals(List.of(new Diagnostic(6, 0, "java.lang.ArithmeticException: / by zero")), result.diagnostics());
  }

  @Test
  void a_learners_own_exception_class_and_its_cause_are_shown() {
    RunResult result = run(program("int[] a = new int[1]; try { a[1] = 1; } catch (RuntimeException e) { throw new Oops(\"boom\", e); }",
        "static class Oops extends RuntimeException { Oops(String m, Throwable c) { super(m, c); } }"));

    assertEquals(Outcome.RUNTIME_ERROR, result.status());
    assertEquals("Exception in thread \"main\" Main$Oops: boom\n"
        + "\tat Main.main(Main.java:4)\n"
        + "Caused by: java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1\n"
        + "\tat Main.main(Main.java:4)\n", result.stderr());
  }

  @Test
  void print_stack_trace_shows_the_learners_frames_on_standard_error() {
    RunResult result = run(main("try { Integer.parseInt(\"x\"); } catch (NumberFormatException e) { e.printStackTrace(); }"
        + " System.out.println(\"still running\"); new Error(\"to out\").printStackTrace(System.out);"));

    assertEquals(Outcome.OK, result.status());
    assertEquals("still running\njava.lang.Error: to out\n\tat Main.main(Main.java:4)\n", result.stdout());
    assertEquals("java.lang.NumberFormatException: For input string: \"x\"\n\tat Main.main(Main.java:4)\n",
        result.stderr());
  }

  @Test
  void a_failing_static_initializer_is_a_runtime_error() {
    RunResult result = run(program("System.out.println(\"never\");", "static int[] table = new int[-1];"));

    assertEquals(Outcome.RUNTIME_ERROR, result.status());
    assertEquals("Exception in thread \"main\" java.lang.ExceptionInInitializerError\n"
        + "Caused by: java.lang.NegativeArraySizeException: -1\n"
        + "\tat Main.<clinit>(Main.java:6)\n", result.stderr());
    assertEquals(new Diagnostic(6, 0, "java.lang.ExceptionInInitializerError"), result.diagnostics().get(0));
  }

  @Test
  void catching_exceptions_works_as_usual_for_the_learners_own_exceptions() {
    RunResult result = run(program(String.join(" ",
            "try { check(-1); } catch (Exception e) { System.out.println(\"caught \" + e.getMessage()); }",
            "finally { System.out.println(\"finally\"); }",
            "try { System.out.println(1 / 0); } catch (ArithmeticException e) { System.out.println(\"math \" + e.getMessage()); }",
            "try { throw new Error(\"own error\"); } catch (Throwable t) { System.out.println(\"throwable \" + t.getMessage()); }",
            "try { recurse(0); } catch (StackOverflowError e) { System.out.println(\"deep\"); }"),
        "static void check(int n) throws Exception { if (n < 0) throw new Exception(\"negative \" + n); }"
            + " static int recurse(int n) { return recurse(n + 1) + 1; }"));

    assertEquals("caught negative -1\nfinally\nmath / by zero\nthrowable own error\ndeep\n", result.stdout(), result::toString);
    assertEquals(Outcome.OK, result.status());
  }

  @Test
  void the_java_that_janino_accepts_runs() {
    RunResult result = run(program(String.join("\n",
            "Color c = Color.valueOf(\"GREEN\"); System.out.println(c + \" \" + c.ordinal() + \" \" + Color.values().length);",
            "List<String> names = new ArrayList<String>(Arrays.asList(\"bo\", \"al\", \"cy\"));",
            "Collections.sort(names, new Comparator<String>() { public int compare(String a, String b) { return b.compareTo(a); } });",
            "System.out.println(names + \" \" + ((String) names.get(0)).length());",
            "Map<String, Integer> m = new TreeMap<String, Integer>(); for (String n : names) m.put(n, n.length());",
            "System.out.println(m);",
            "switch (\"b\") { case \"a\": System.out.println(\"A\"); break; case \"b\": System.out.println(\"B\"); break; default: }",
            "System.out.printf(\"%5.2f|%s%n\", 3.14159, \"x\");",
            "System.out.println(new Greeter() { }.greet());",
            "try (Res r = new Res()) { System.out.println(\"using\"); }",
            "int[][] grid = new int[2][3]; grid[1][2] = 7; System.out.println(grid[1][2] + grid.length * 10);",
            "System.out.println(java.math.BigInteger.valueOf(2).pow(100));",
            "System.out.println(\"a,b,,c\".split(\",\").length + \" \" + \"x1y22z\".replaceAll(\"[0-9]+\", \"#\"));",
            "java.util.regex.Matcher mt = java.util.regex.Pattern.compile(\"(\\\\w)(\\\\d)\").matcher(\"a1 b2\");",
            "while (mt.find()) System.out.print(mt.group(2) + mt.group(1)); System.out.println();",
            "String block = \"\"\"\n      one\n        two\n      \"\"\"; System.out.print(block);",
            "System.out.println(\"a\".getClass().getSimpleName() + \" \" + Math.max(3, 4) + \" \" + Integer.toBinaryString(5));"),
        String.join("\n",
            "enum Color { RED, GREEN }",
            "interface Greeter { default String greet() { return \"hello\"; } }",
            "static class Res implements AutoCloseable { public void close() { System.out.println(\"closed\"); } }")));

    assertEquals(String.join("\n",
        "GREEN 1 2",
        "[cy, bo, al] 2",
        "{al=2, bo=2, cy=2}",
        "B",
        " 3.14|x",
        "hello",
        "using",
        "closed",
        "27",
        "1267650600228229401496703205376",
        "4 x#y#z",
        "1a2b",
        "one",
        "  two",
        "String 4 101",
        ""), result.stdout(), result::toString);
    assertEquals(Outcome.OK, result.status());
  }

  @Test
  void the_first_public_class_with_main_runs() {
    String source = "class Helper { public static void main(String[] a) { System.out.println(\"helper\"); } }\n"
        + "public class First { public static void main(String[] a) { System.out.println(\"first \" + Second.NAME); } }\n"
        + "public class Second { static final String NAME = \"second\";"
        + " public static void main(String[] a) { System.out.println(\"second\"); } }\n";

    assertEquals("first second\n", run(source).stdout());
  }

  @Test
  void a_snippet_without_main_is_a_compile_error() {
    RunResult result = run("public class Nothing { void run() { } }");

    assertEquals(Outcome.COMPILE_ERROR, result.status());
    assertEquals(List.of(new Diagnostic(0, 0,
        "nothing to run: add a public class with public static void main(String[] args)")), result.diagnostics());
  }

  @Test
  void compile_errors_carry_their_line_and_column_and_all_errors_are_listed() {
    RunResult result = run(main("int x = \"text\"; String s = 5;"));

    assertEquals(Outcome.COMPILE_ERROR, result.status());
    assertEquals(List.of(
        new Diagnostic(4, 13, "incompatible types: String cannot be converted to int"),
        new Diagnostic(4, 32, "incompatible types: int cannot be converted to String")),
        result.diagnostics());
  }

  @Test
  void one_undefined_variable_is_one_diagnostic_that_names_it() {
    RunResult result = run(main("int total = 0; total += count; System.out.println(count + total); count++;"));

    assertEquals(List.of(new Diagnostic(4, 29, "count is not defined: no variable, parameter or field of that name is"
        + " visible here (check the spelling, or declare it before this line)")), result.diagnostics());
  }

  @Test
  void an_instance_member_used_from_main_is_explained() {
    RunResult result = run(program("count++; greet();", "int count; void greet() { }"));

    assertEquals(List.of(
        new Diagnostic(4, 5, "count belongs to an object (the variable is not static), so static code such as main"
            + " cannot use it directly: make it static, or create an object and use it through that"),
        new Diagnostic(4, 14, "greet() belongs to an object (the method is not static), so static code such as main"
            + " cannot use it directly: make it static, or create an object and use it through that")),
        result.diagnostics());
  }

  @Test
  void a_null_pointer_exception_names_the_learners_variable() {
    RunResult local = run(main("String name = null; System.out.println(name.length());"));
    RunResult parameter = run(program("System.out.println(size(null));", "static int size(int[] counts) { return counts.length; }"));

    assertEquals(List.of(new Diagnostic(4, 0, "java.lang.NullPointerException: Cannot invoke \"String.length()\" because"
        + " \"name\" is null")), local.diagnostics());
    assertEquals(List.of(new Diagnostic(6, 0, "java.lang.NullPointerException: Cannot read the array length because"
        + " \"counts\" is null")), parameter.diagnostics());
  }

  @Test
  void a_stack_trace_the_learner_asks_for_has_only_the_learners_frames() {
    String frames = "for (StackTraceElement e : where()) System.out.println(e);";
    String where = "static StackTraceElement[] where() { return new Throwable().getStackTrace(); }";

    RunResult janino = run(program(frames, where));
    RunResult javac = run(program("var unused = 0; " + frames, where));

    assertEquals("Main.where(Main.java:6)\nMain.main(Main.java:4)\n", janino.stdout());
    assertEquals(janino.stdout(), javac.stdout());
  }

  @Test
  void a_syntax_error_is_one_diagnostic_without_the_guesses_that_follow_it() {
    RunResult result = run(program("int x = (1 + ;", "void broken( { }"));

    assertEquals(List.of(new Diagnostic(4, 18, "illegal start of expression")), result.diagnostics());
  }

  @Test
  void a_syntax_error_is_a_compile_error_at_its_line() {
    RunResult result = run(main("int x = 1 +;"));

    assertEquals(List.of(new Diagnostic(4, 16, "illegal start of expression")), result.diagnostics());
  }

  @Test
  void a_source_over_the_size_limit_is_refused_before_compiling() {
    SandboxLimits limits = new SandboxLimits(2_000, 1_000_000, 64L << 20, 1024, 100, 1_000);

    RunResult result = RUNNER.run(main("System.out.println(\"this program is longer than one hundred bytes\");"), limits);

    assertEquals(Outcome.COMPILE_ERROR, result.status());
    assertEquals(List.of(new Diagnostic(0, 0, "the source is 182 bytes; at most 100 bytes are allowed")),
        result.diagnostics());
  }

  @Test
  void an_unchanged_snippet_runs_again_from_the_cache_with_fresh_state() {
    String source = program("count++; System.out.println(count);", "static int count = 41;");

    long compiledBefore = RUNNER.compiledSources();
    RunResult first = run(source);
    RunResult second = run(source);

    assertEquals("42\n", first.stdout());
    assertEquals("42\n", second.stdout());
    assertEquals(compiledBefore + 1, RUNNER.compiledSources(), "the second run came from the cache");
  }

  @Test
  void concurrent_runs_never_see_each_others_output_or_state() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<RunResult>> results = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String source = program("for (int i = 0; i < 200; i++) { shared += " + i + "; System.out.println(\"run " + i
            + " \" + i); } System.err.print(\"err " + i + "\"); System.out.print(shared);", "static long shared;");
        results.add(pool.submit(() -> run(source)));
      }
      for (int i = 0; i < 16; i++) {
        StringBuilder expected = new StringBuilder();
        for (int k = 0; k < 200; k++) expected.append("run ").append(i).append(' ').append(k).append('\n');
        expected.append(200L * i);
        RunResult result = results.get(i).get(60, TimeUnit.SECONDS);
        assertEquals(new RunResult(Outcome.OK, expected.toString(), "err " + i, List.of(), result.elapsedMs()), result);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void a_compilation_over_its_time_limit_is_a_timeout() {
    SnippetRunner runner = new SnippetRunner();
    runner.run(main("System.out.println(1);"), SandboxLimits.defaults()); // warm: the first compilation may take longer
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 1500; i++) body.append("x = x * 31 + ").append(i).append(" % (x | 1);\n");
    // A clock limit far off, so the CPU time this test is about decides however busy the machine is.
    SandboxLimits limits = new SandboxLimits(2_000, 50_000_000L, 64L << 20, 65536, 65536, 5).withWallMillis(600_000);

    RunResult result = runner.run(main("long x = 1;\n" + body + "System.out.println(x);"), limits);

    assertEquals(Outcome.TIMEOUT, result.status(), result::toString);
    assertEquals(List.of(new Diagnostic(0, 0, "compiling took longer than 5 ms: is the source very large?")),
        result.diagnostics());
    assertTrue(runner.healthy(), "a compilation that merely ran long does not retire the runner");
  }

  @Test
  void a_method_that_instrumentation_takes_over_the_jvm_limit_is_a_compile_error() {
    SandboxLimits generous = new SandboxLimits(2_000, 50_000_000L, 64L << 20, 65536, 65536, 30_000);

    RunResult result = RUNNER.run(arrayOf(10_942), generous); // Janino's own limit is a few elements further

    assertEquals(new RunResult(Outcome.COMPILE_ERROR, "", "", List.of(new Diagnostic(0, 0, "the method main of Main"
        + " is too large to run here (the sandbox adds checks to it): split it into smaller methods")),
        result.elapsedMs()), result);
  }

  /** A main whose only statement initialises an int array of {@code n} elements: about 6 bytes of code each. */
  private static String arrayOf(int n) {
    return "public class Main {\n  public static void main(String[] args) {\n    int[] a = {"
        + String.join(",", Collections.nCopies(n, "1")) + "};\n    System.out.println(a.length);\n  }\n}\n";
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = SnippetRunnerTest.class.getResourceAsStream(path)) {
      if (in == null) throw new IOException("missing class path resource " + path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
