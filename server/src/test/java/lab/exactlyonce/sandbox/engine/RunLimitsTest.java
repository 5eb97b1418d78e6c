package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The limits a learner meets are the ones they are told about: CPU time, not a count of steps, ends a long
 * computation; the data a run keeps live, not what it allocated over its run, ends it for memory; and the message
 * names the limit. Through a real worker (its heap and collector are production's), with the test limits: a
 * second of CPU time (the clock limit far off, so a busy machine does not decide), 64 MB of live data, a step
 * budget of 5 million.
 */
class RunLimitsTest {
  private static final SandboxLimits LIMITS = Snippets.testLimits().withCpuMillis(1_000);
  private static final String KEPT_TOO_MUCH =
      "stopped by the memory limit: the program kept more than 64 MB of data live at once";
  @RegisterExtension
  static final TestWorker.PerClass WORKER = new TestWorker.PerClass();
  private static long id;

  static Stream<Arguments> runs() {
    return Stream.of(
        arguments("a loop of 60 million steps, twelve times the step budget",
            main("long sum = 0; for (int i = 0; i < 60_000_000; i++) sum += i % 7; System.out.println(sum);"),
            ok("179999994\n")),
        arguments("recursion of 10 million calls, twice the step budget",
            Snippets.program("System.out.println(fib(33));",
                "static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }"),
            ok("3524578\n")),
        arguments("2 GB allocated in total, a few kilobytes of it live at once (the worker's heap is 256 MB)",
            main("long n = 0; for (int i = 0; i < 2_000; i++) n += new long[1 << 17].length; System.out.println(n);"),
            ok("262144000\n")),
        arguments("4 million strings made and dropped, far more than 64 MB in total",
            main("int n = 0; for (int i = 0; i < 4_000_000; i++) n += (\"line \" + i + \" of many\").length();"
                + " System.out.println(n);"),
            ok("78888890\n")),
        arguments("an endless loop", main("int n = 0; while (true) { n++; }"),
            stopped(Outcome.TIMEOUT, "stopped by the CPU time limit: the program computed for 1000 ms, the most one run"
                + " may; is there an endless loop or a very long computation?")),
        arguments("100 MB kept live in 1 MB arrays",
            main("List<long[]> keep = new ArrayList<long[]>();"
                + " for (int i = 0; i < 100; i++) keep.add(new long[1 << 17]); System.out.println(keep.size());"),
            stopped(Outcome.MEMORY_LIMIT, KEPT_TOO_MUCH)),
        arguments("100 MB kept live in strings of 1 MB",
            main("List<String> keep = new ArrayList<String>();"
                + " for (int i = 0; i < 100; i++) keep.add(\"x\".repeat(1 << 20)); System.out.println(keep.size());"),
            stopped(Outcome.MEMORY_LIMIT, KEPT_TOO_MUCH)));
  }

  private static RunResult ok(String stdout) {
    return new RunResult(Outcome.OK, stdout, "", List.of(), 0);
  }

  private static RunResult stopped(Outcome outcome, String message) {
    return new RunResult(outcome, "", "", List.of(new Diagnostic(4, 0, message)), 0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void ends_only_at_a_limit_it_names(String run, String source, RunResult expected) throws IOException {
    WorkerResponse response = WORKER.get().run(++id, source, LIMITS);
    RunResult result = response.result();

    assertEquals(expected, new RunResult(result.status(), result.stdout(), result.stderr(), result.diagnostics(), 0),
        run);
    assertFalse(response.retiring(), () -> run + ": stopped before the heap ran out, the worker serves on");
  }
}
