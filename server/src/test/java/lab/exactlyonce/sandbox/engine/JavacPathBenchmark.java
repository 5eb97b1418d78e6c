package lab.exactlyonce.sandbox.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Measures compile + run through a real worker process (a benchmark program, not a test), with a fresh source each
 * run so that every run compiles: a program javac compiles (lambdas, records, streams) and one Janino keeps.
 * Run: {@code mvn -o -q test-compile} then
 * {@code java -cp target/classes:target/test-classes:<dependencies> lab.exactlyonce.sandbox.engine.JavacPathBenchmark [runs]}.
 */
public final class JavacPathBenchmark {
  private JavacPathBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    try (TestWorker worker = new TestWorker()) {
      measure(worker, "javac: Lambdas (corpus)", resource("/java17/Lambdas.java"), runs);
      measure(worker, "javac: Records (corpus)", resource("/java17/Records.java"), runs);
      measure(worker, "Janino: a loop on primitives", Snippets.main(
          "long x = 0; for (int i = 0; i < 1000; i++) x += i * (long) i; System.out.println(x);"), runs);
    }
  }

  private static void measure(TestWorker worker, String label, String source, int runs) throws IOException {
    long id = 0;
    for (int i = 0; i < runs / 2; i++) check(worker.run(id++, source + "\n// warm " + label + i, SandboxLimits.defaults()));
    double[] roundTrip = new double[runs];
    double[] inWorker = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      WorkerResponse response = worker.run(id++, source + "\n// run " + label + i, SandboxLimits.defaults());
      roundTrip[i] = (System.nanoTime() - start) / 1e6;
      inWorker[i] = check(response).elapsedMs();
    }
    Arrays.sort(roundTrip);
    Arrays.sort(inWorker);
    System.out.printf("%-32s runs=%d round trip p50=%.1f ms p90=%.1f ms; worker's own p50=%.0f ms%n", label, runs,
        roundTrip[runs / 2], roundTrip[(int) (runs * 0.9)], inWorker[runs / 2]);
  }

  private static RunResult check(WorkerResponse response) {
    if (response.result().status() != Outcome.OK) throw new IllegalStateException("a run failed: " + response.result());
    return response.result();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = JavacPathBenchmark.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
