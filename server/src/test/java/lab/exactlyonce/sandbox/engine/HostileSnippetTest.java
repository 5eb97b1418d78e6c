package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Set;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * One row per attack class: the snippet, the outcome it must end with, the exact first diagnostic and its line
 * (0: not asserted). Runs in-process through {@link SnippetRunner}; the worker process adds the kill switch.
 */
class HostileSnippetTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();
  /** The test limits with a CPU limit of a second, which the endless loops below spend. */
  private static final SandboxLimits LIMITS = Snippets.testLimits().withCpuMillis(1_000);
  private static final String CPU =
      "stopped by the CPU time limit: the program computed for 1000 ms, the most one run may; is there an endless loop"
          + " or a very long computation?";
  private static final String MEMORY =
      "stopped by the memory limit: the program kept more than 64 MB of data live at once";

  @BeforeAll
  static void warmUp() {
    // As a worker does: the rows that overflow the stack must not break a JDK class for the rest of this JVM.
    WorkerMain.initialiseAllowedClasses(System.err);
    RUNNER.run(main("System.out.println(\"warm\");"), Snippets.testLimits());
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        // processes and the JVM itself
        rejected("System.exit", main("System.exit(0);"), "java.lang.System.exit", 4),
        rejected("fully qualified System.exit", main("java.lang.System.exit(0);"), "java.lang.System.exit", 4),
        rejected("statically imported System.exit",
            "import static java.lang.System.exit;\npublic class Main {\n  public static void main(String[] args) {\n"
                + "    exit(0);\n  }\n}\n", "java.lang.System.exit", 4),
        rejected("a resource through the class", main("Object in = Main.class.getResourceAsStream(\"/etc/passwd\");"),
            "java.lang.Class.getResourceAsStream", 4),
        rejected("unicode-escaped System.exit", main("\\u0053ystem.exit(0);"), "java.lang.System.exit", 4),
        rejected("Runtime.exec", main("Runtime.getRuntime().exec(\"id\");"), "java.lang.Runtime", 4),
        rejected("Runtime.halt", main("Runtime.getRuntime().halt(0);"), "java.lang.Runtime", 4),
        rejected("ProcessBuilder", main("new ProcessBuilder(\"id\").start();"), "java.lang.ProcessBuilder", 4),
        rejected("System.gc", main("System.gc();"), "java.lang.System.gc", 4),
        rejected("System.loadLibrary", main("System.loadLibrary(\"x\");"), "java.lang.System.loadLibrary", 4),
        rejected("native method", program("boom();", "static native void boom();"), "the native method boom()", 6),
        rejected("sun.misc.Unsafe", main("Object u = sun.misc.Unsafe.getUnsafe();"), "sun.misc.Unsafe", 4),
        // the environment and JVM-wide state
        rejected("System.getenv", main("System.out.println(System.getenv(\"HOME\"));"), "java.lang.System.getenv", 4),
        rejected("System.getProperty", main("System.out.println(System.getProperty(\"user.home\"));"),
            "java.lang.System.getProperty", 4),
        rejected("System.setProperty", main("System.setProperty(\"user.dir\", \"/\");"),
            "java.lang.System.setProperty", 4),
        rejected("system property through Integer.getInteger",
            main("System.out.println(Integer.getInteger(\"java.version\"));"), "java.lang.Integer.getInteger", 4),
        rejected("System.setOut", main("System.setOut(System.err);"), "java.lang.System.setOut", 4),
        rejected("System.out.close", main("System.out.close();"), "java.io.PrintStream.close", 4),
        rejected("System.in read", main("System.in.read();"), "java.lang.System.in", 4),
        rejected("Scanner on System.in", main("new Scanner(System.in).nextLine();"), "java.lang.System.in", 4),
        rejected("String.intern (tells which strings other runs interned)",
            main("String s = new StringBuilder(\"sec\").append(\"ret\").toString(); System.out.println(s.intern() == s);"),
            "java.lang.String.intern", 4),
        rejected("Locale.setDefault", main("Locale.setDefault(Locale.GERMAN);"), "java.util.Locale.setDefault", 4),
        // java.text's formats are allowed; what they would reach beyond themselves is not
        rejected("a date format's time zone (shared by the JVM)",
            main("new java.text.SimpleDateFormat(\"z\").setTimeZone(null);"), "java.util.TimeZone", 4),
        rejected("a date format's calendar", main("Object c = java.text.DateFormat.getInstance().getCalendar();"),
            "java.util.Calendar", 4),
        rejected("a number format's currency (read from the JDK's files)",
            main("java.text.NumberFormat.getInstance().setCurrency(null);"), "java.util.Currency", 4),
        rejected("a date format's shared symbols",
            main("Object s = new java.text.SimpleDateFormat().getDateFormatSymbols();"),
            "java.text.DateFormatSymbols", 4),
        rejected("Locale.setDefault for formatting only",
            main("Locale.setDefault(Locale.Category.FORMAT, Locale.GERMAN);"), "java.util.Locale$Category", 4),
        rejected("TimeZone.setDefault", main("TimeZone.setDefault(TimeZone.getTimeZone(\"PST\"));"),
            "java.util.TimeZone", 4),
        rejected("System.getProperties", main("System.getProperties().clear();"), "java.lang.System.getProperties", 4),
        rejected("System.clearProperty", main("System.clearProperty(\"user.timezone\");"),
            "java.lang.System.clearProperty", 4),
        // the JVM-wide generators of random numbers, which the run's own replaces only in calls it can see
        rejected("a method reference to Math.random",
            main("java.util.function.DoubleSupplier r = Math::random; System.out.println(r.getAsDouble());"),
            "a method reference to java.lang.Math.random (write a lambda instead, e.g. () -> Math.random())", 4),
        rejected("a constructor reference to Random",
            main("java.util.function.Supplier<Random> r = Random::new; System.out.println(r.get().nextInt());"),
            "a constructor reference to java.util.Random (write a lambda instead, e.g. () -> new Random())", 4),
        rejected("a method reference to ThreadLocalRandom.current", main("java.util.function.Supplier<Random> r ="
            + " java.util.concurrent.ThreadLocalRandom::current; System.out.println(r.get().nextInt());"),
            "a method reference to java.util.concurrent.ThreadLocalRandom.current (write a lambda instead, e.g."
                + " () -> ThreadLocalRandom.current())", 4),
        rejected("a method reference to Collections.shuffle", main("java.util.function.Consumer<List<Integer>> s ="
            + " Collections::shuffle; s.accept(new ArrayList<Integer>());"),
            "a method reference to java.util.Collections.shuffle (write a lambda instead, e.g."
                + " x -> Collections.shuffle(x))", 4),
        rejected("SplittableRandom (seeded from a JVM-wide generator)",
            main("System.out.println(new SplittableRandom().nextInt());"), "java.util.SplittableRandom", 4),
        // reflection, class loading, invoke
        rejected("Class.forName", main("Class.forName(\"java.io.File\");"), "java.lang.Class.forName", 4),
        rejected("Class.forName with the bootstrap loader",
            main("Object f = Class.forName(\"java.io.File\", true, null);"), "java.lang.Class.forName", 4),
        rejected("getClass().getMethods()", main("Object[] ms = \"x\".getClass().getMethods();"),
            "java.lang.Class.getMethods", 4),
        rejected("java.lang.reflect", main("Object a = java.lang.reflect.Array.newInstance(int.class, 3);"),
            "java.lang.reflect.Array", 4),
        rejected("MethodHandles", main("Object l = java.lang.invoke.MethodHandles.lookup();"),
            "java.lang.invoke.MethodHandles", 4),
        rejected("ClassLoader", main("ClassLoader cl = Main.class.getClassLoader();"),
            "java.lang.Class.getClassLoader", 4),
        rejected("a class of the sandbox's own package",
            "package lab.exactlyonce.sandbox.engine;\npublic class Budget {\n"
                + "  public static void main(String[] args) { }\n}\n",
            "lab.exactlyonce.* as a package of your own", 2),
        rejected("finalizer", program("new Main();", "protected void finalize() { }"), "finalize()", 6),
        // threads
        rejected("new Thread", main("new Thread(new Runnable() { public void run() { } }).start();"),
            "java.lang.Thread", 4),
        rejected("Thread.sleep", main("Thread.sleep(10);"), "java.lang.Thread", 4),
        rejected("Object.wait", main("Object lock = new Object(); synchronized (lock) { lock.wait(); }"),
            "java.lang.Object.wait", 4),
        rejected("executor", main("java.util.concurrent.Executors.newFixedThreadPool(2);"),
            "java.util.concurrent.Executors", 4),
        rejected("Timer", main("Timer t = new Timer();"), "java.util.Timer", 4),
        rejected("parallel stream", main("new ArrayList<String>().parallelStream().count();"),
            "java.util.Collection.parallelStream", 4),
        // files, network, serialization
        rejected("java.io.File", main("System.out.println(new java.io.File(\"/etc/passwd\").exists());"),
            "java.io.File", 4),
        rejected("FileInputStream", main("new java.io.FileInputStream(\"/etc/passwd\").read();"),
            "java.io.FileInputStream", 4),
        rejected("java.nio.file.Files",
            main("java.nio.file.Files.readAllLines(java.nio.file.Paths.get(\"/etc/passwd\"));"),
            "java.nio.file.Paths", 4),
        rejected("Socket", main("new java.net.Socket(\"localhost\", 80);"), "java.net.Socket", 4),
        rejected("URL", main("new java.net.URL(\"http://localhost/\").openStream();"), "java.net.URL", 4),
        rejected("ObjectInputStream", main("new java.io.ObjectInputStream(null).readObject();"),
            "java.io.ObjectInputStream", 4),
        // budgets
        arguments("endless loop", main("int n = 0; while (true) { n++; }"), Outcome.TIMEOUT, CPU, 4),
        arguments("endless loop in a static initializer", program("", "static int n; static { while (true) { n++; } }"),
            Outcome.TIMEOUT, CPU, 6),
        arguments("catch (Throwable) swallowing the budget",
            main("int n = 0; while (true) { try { while (true) { n++; } } catch (Throwable t) { n--; } }"),
            Outcome.TIMEOUT, CPU, 4),
        arguments("loop catching Throwable in finally",
            program("while (true) { try { spin(); } finally { try { spin(); } catch (Throwable t) { } } }",
                "static int n; static void spin() { while (true) { n++; } }"), Outcome.TIMEOUT, CPU, 6),
        arguments("recursion that catches its own StackOverflowError",
            program("f(0);", "static void f(int n) { try { f(n + 1); } catch (Throwable t) { f(n + 1); } }"),
            Outcome.TIMEOUT, CPU, 6),
        arguments("exception whose message loops", main(
            "throw new RuntimeException() { public String getMessage() { int n = 0; while (true) { n++; } } };"),
            Outcome.TIMEOUT, CPU, 4),
        arguments("endless recursion", program("down(0);", "static int down(int n) { return down(n + 1) + 1; }"),
            Outcome.RUNTIME_ERROR, "java.lang.StackOverflowError", 6),
        arguments("huge array", main("long[] a = new long[Integer.MAX_VALUE - 8];"), Outcome.MEMORY_LIMIT, MEMORY, 4),
        arguments("huge two-dimensional array", main("int[][] m = new int[100000][100000];"),
            Outcome.MEMORY_LIMIT, MEMORY, 4),
        arguments("allocation in a loop",
            main("List<int[]> keep = new ArrayList<int[]>(); while (true) keep.add(new int[1024]);"),
            Outcome.MEMORY_LIMIT, MEMORY, 4),
        arguments("string doubling", main("String s = \"x\"; while (true) s = s + s;"), Outcome.MEMORY_LIMIT, MEMORY, 4),
        arguments("StringBuilder bomb",
            main("StringBuilder sb = new StringBuilder(\"x\"); while (true) sb.append(sb.toString());"),
            Outcome.MEMORY_LIMIT, MEMORY, 4),
        arguments("output flood", main("while (true) System.out.println(\"spam spam spam\");"),
            Outcome.OUTPUT_LIMIT, "stopped by the output limit: the program printed more than 65536 bytes", 4));
  }

  private static Arguments rejected(String attack, String source, String api, int line) {
    return arguments(attack, source, Outcome.REJECTED, api + " is not allowed in the sandbox", line);
  }

  /** Attacks after which the runner must be replaced: a stack overflow may strike inside a JDK initialiser. */
  private static final Set<String> RETIRE_THE_WORKER =
      Set.of("recursion that catches its own StackOverflowError", "endless recursion");

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void is_contained(String attack, String source, Outcome outcome, String message, int line) {
    boolean retires = RETIRE_THE_WORKER.contains(attack);
    SnippetRunner runner = retires ? new SnippetRunner() : RUNNER;
    RunResult result = runner.run(source, LIMITS);

    assertEquals(outcome, result.status(), () -> attack + ": " + result);
    assertFalse(result.diagnostics().isEmpty(), () -> attack + ": " + result);
    assertEquals(message, result.diagnostics().get(0).message(), () -> attack + ": " + result);
    if (line > 0) assertEquals(line, result.diagnostics().get(0).line(), () -> attack + ": " + result);
    assertEquals(!retires, runner.healthy(), attack + (retires ? " left the runner healthy" : " left the runner unhealthy"));
  }

  @Test
  void every_source_of_randomness_works_as_the_jdk_documents_it() {
    RunResult result = RUNNER.run(program(String.join(" ",
        "double m = Math.random(), s = StrictMath.random();",
        "System.out.println((m >= 0 && m < 1) + \" \" + (s >= 0 && s < 1));",
        "int die = java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 7);",
        "System.out.println(die >= 1 && die <= 6);",
        "System.out.println(new Random().nextInt(10) < 10);",
        "System.out.println(new Random(42).nextInt() == new Random(42).nextInt());",
        "System.out.println(new Dice().roll() <= 6);",
        "List<Integer> xs = new ArrayList<Integer>(Arrays.asList(1, 2, 3, 4, 5)); Collections.shuffle(xs);",
        "System.out.println(new TreeSet<Integer>(xs));",
        "System.out.println(UUID.randomUUID().version());"),
        "static class Dice extends Random { Dice() { super(); } int roll() { return 1 + nextInt(6); } }"),
        Snippets.testLimits());

    assertEquals(Outcome.OK, result.status(), result::toString);
    assertEquals("true true\ntrue\ntrue\ntrue\ntrue\n[1, 2, 3, 4, 5]\n4\n", result.stdout());
  }

  @Test
  void randomness_in_lambdas_compiled_by_javac_works_too() {
    RunResult result = RUNNER.run(main("java.util.function.IntSupplier die = () ->"
        + " java.util.concurrent.ThreadLocalRandom.current().nextInt(1, 7); var r = new Random();"
        + " java.util.function.DoubleSupplier m = () -> Math.random() + r.nextDouble();"
        + " System.out.println(die.getAsInt() <= 6 && m.getAsDouble() < 2);"), Snippets.testLimits());

    assertEquals(Outcome.OK, result.status(), result::toString);
    assertEquals("true\n", result.stdout());
  }

  @Test
  void output_flood_keeps_exactly_the_limit() {
    RunResult result = RUNNER.run(main("while (true) System.out.print(\"0123456789\");"), LIMITS);

    assertEquals(Outcome.OUTPUT_LIMIT, result.status());
    assertEquals(64 * 1024, result.stdout().length());
  }

  @Test
  void static_state_does_not_leak_from_one_run_to_the_next() {
    String source = program("counter++; System.out.println(\"counter=\" + counter);", "static int counter;");

    RunResult first = RUNNER.run(source, Snippets.testLimits());
    RunResult second = RUNNER.run(source, Snippets.testLimits());

    assertEquals("counter=1\n", first.stdout());
    assertEquals("counter=1\n", second.stdout());
  }

  @Test
  void regex_backtracking_spends_the_budget_and_the_runner_stays_healthy() {
    String forever = "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"";
    for (String call : new String[] {
        "System.out.println(" + forever + ".matches(\"(.*a){12}!\"));",
        "System.out.println(java.util.regex.Pattern.compile(\"(.*a){12}!\").matcher(" + forever + ").find());",
        "System.out.println(" + forever + ".replaceAll(\"(.*a){12}!\", \"x\"));",
        "System.out.println(" + forever + ".split(\"(.*a){12}!\").length);"}) {
      RunResult result = RUNNER.run(main(call), LIMITS);

      // Stopped cooperatively, at the CPU limit: the clock limit is far off.
      assertEquals(Outcome.TIMEOUT, result.status(), result::toString);
      assertEquals(CPU, result.diagnostics().get(0).message(), result::toString);
      assertEquals(4, result.diagnostics().get(0).line(), result::toString);
    }
    assertTrue(RUNNER.healthy());
  }

  @Test
  void a_long_library_call_times_out_and_marks_the_runner_unhealthy() {
    SnippetRunner runner = new SnippetRunner();
    // the clock limit far off: however busy the test machine, the CPU budget is what stops the call
    SandboxLimits limits = new SandboxLimits(1_000, 5_000_000L, 64L * 1024 * 1024, 65536, 65536, 5_000)
        .withWallMillis(60_000);

    RunResult result = runner.run(
        main("System.out.println(java.math.BigInteger.ONE.shiftLeft(40000000).toString().length());"), limits);

    assertEquals(Outcome.TIMEOUT, result.status(), result::toString);
    assertEquals(CPU, result.diagnostics().get(0).message());
    assertFalse(runner.healthy());
  }
}
