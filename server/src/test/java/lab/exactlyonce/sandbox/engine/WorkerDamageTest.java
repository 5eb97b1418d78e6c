package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Which runs leave a worker unfit for other runs, and that the run's own answer stays what the learner should see.
 * Each row in a fresh worker process (a damaging row would damage the test JVM itself): a damaged worker says so in
 * its answer ({@code retiring}) and exits with {@link WorkerMain#EXIT_UNHEALTHY}; any other carries on.
 */
@Tag("sandbox")
class WorkerDamageTest {
  private static final String DEEP = "static int depth; static void down() { depth++; down(); }";

  static Stream<Arguments> runs() {
    return Stream.of(
        arguments("endless recursion", program("down();", DEEP), Outcome.RUNTIME_ERROR,
            "java.lang.StackOverflowError", true),
        arguments("a stack overflow caught, then an untouched JDK class used at the bottom of the stack",
            program("try { down(); } catch (StackOverflowError e) { System.out.println(new Scanner(\"7\").nextInt()); }",
                DEEP), Outcome.OK, null, true),
        arguments("a stack overflow caught in every frame on the way up",
            program("f(0); System.out.println(\"done\");",
                "static void f(int n) { try { f(n + 1); } catch (StackOverflowError e) { String s = \"\" + (0.1 + n); } }"),
            Outcome.OK, null, true),
        arguments("the learner's own class failing its static initialiser",
            program("System.out.println(Broken.X);", "static class Broken { static int X = 1 / (Broken.class.getName().length() - 11); }"),
            Outcome.RUNTIME_ERROR, "java.lang.ExceptionInInitializerError", false),
        arguments("the learner's own class failing twice (Could not initialize class Main$Broken)",
            program("try { System.out.println(Broken.X); } catch (Throwable t) { } System.out.println(Broken.X);",
                "static class Broken { static int X = 1 / (Broken.class.getName().length() - 11); }"),
            Outcome.RUNTIME_ERROR, "java.lang.NoClassDefFoundError: Could not initialize class Main$Broken", false),
        arguments("an ordinary exception", main("Object o = null; o.toString();"), Outcome.RUNTIME_ERROR,
            "java.lang.NullPointerException: Cannot invoke \"Object.toString()\" because \"o\" is null", false),
        arguments("a memory budget stop (no real OutOfMemoryError)", main("long[] a = new long[Integer.MAX_VALUE - 8];"),
            Outcome.MEMORY_LIMIT, "stopped by the memory limit: the program kept more than 64 MB of data live at once",
            false),
        arguments("the heap running out (a live data limit larger than the heap)",
            main("List<long[]> keep = new ArrayList<long[]>(); while (true) keep.add(new long[1 << 20]);"),
            Outcome.MEMORY_LIMIT, "stopped by the memory limit: the program ran out of memory (it may keep 1048576 MB"
                + " of data live at once)", true));
  }

  /** The test limits, except for the heap-running-out row: a live data limit no 256 MB heap can meet. */
  private static SandboxLimits limitsFor(String run) {
    return run.startsWith("the heap running out")
        ? new SandboxLimits(3_000, 5_000_000L, 1L << 40, 64 * 1024, 64 * 1024, 5_000) : Snippets.testLimits();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void retires_the_worker_only_after_damage(String run, String source, Outcome outcome, String firstDiagnostic,
                                            boolean retires) throws Exception {
    try (TestWorker worker = new TestWorker()) {
      WorkerResponse response = worker.run(1, source, limitsFor(run));

      RunResult result = response.result();
      assertEquals(outcome, result.status(), result::toString);
      if (firstDiagnostic != null) assertEquals(firstDiagnostic, result.diagnostics().get(0).message(), result::toString);
      assertEquals(retires, response.retiring(), result::toString);
      if (retires) {
        assertTrue(worker.process.waitFor(10, TimeUnit.SECONDS), "the damaged worker did not exit");
        assertEquals(WorkerMain.EXIT_UNHEALTHY, worker.process.exitValue());
      } else {
        assertEquals("2\n", worker.run(2, main("System.out.println(1 + 1);"), Snippets.testLimits()).result().stdout());
      }
    }
  }
}
