package lab.exactlyonce.sandbox.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Measures in-process runs of the two demos (a benchmark program, not a test): compile + verify + instrument +
 * run with a fresh source each time, and re-runs of an unchanged source (from the cache, fresh class loader).
 * Run: {@code mvn -o -q test-compile} then
 * {@code java -cp target/classes:target/test-classes:<dependencies> lab.exactlyonce.sandbox.engine.SnippetRunnerBenchmark [runs]}.
 */
public final class SnippetRunnerBenchmark {
  private SnippetRunnerBenchmark() {
  }

  public static void main(String[] args) throws IOException {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    SnippetRunner runner = new SnippetRunner();
    for (String demo : new String[] {"SinkDemo", "TxnDedupeDemo"}) {
      String source = resource("/snippets/exactly-once/" + demo + ".java");
      measure(runner, demo + " compiled each run", source, runs, true);
      measure(runner, demo + " unchanged (cached)", source, runs, false);
    }
  }

  private static void measure(SnippetRunner runner, String label, String source, int runs, boolean fresh) {
    for (int i = 0; i < runs / 2; i++) check(runner.run(fresh ? source + "\n// warm " + i : source, SandboxLimits.defaults()));
    double[] millis = new double[runs];
    for (int i = 0; i < runs; i++) {
      String s = fresh ? source + "\n// run " + i : source;
      long start = System.nanoTime();
      check(runner.run(s, SandboxLimits.defaults()));
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    System.out.printf("%-36s runs=%d median=%.2f ms p90=%.2f ms p99=%.2f ms%n", label, runs,
        millis[runs / 2], millis[(int) (runs * 0.9)], millis[(int) (runs * 0.99)]);
  }

  private static void check(RunResult result) {
    if (result.status() != Outcome.OK) throw new IllegalStateException("benchmark run failed: " + result);
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = SnippetRunnerBenchmark.class.getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
