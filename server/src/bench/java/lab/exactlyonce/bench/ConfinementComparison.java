package lab.exactlyonce.bench;

import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.sandbox.SandboxSettings;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What OS confinement costs: a one-worker sandbox started again and again, in turn with the best confinement this
 * host allows ({@code auto}), with the best it allows without bubblewrap ({@code --sandbox-bubblewrap off}: util-linux
 * and the filter the worker loads itself) and with plain child processes ({@code none}), measuring the worker's warm-up
 * (start to ready) and then the latency of one run after another. The self-check itself runs once per JVM (its
 * verdict is kept), so the caller times it on its own: the app's first start.
 */
final class ConfinementComparison {
  private ConfinementComparison() {
  }

  private record Series(String mode, List<Double> warmUps, List<Double> runs, int[] errors, String[] label) {}

  static void print(String source, String expected, SandboxSettings base, int rounds, int runsPerRound,
                    double appStartMs) throws Exception {
    var modes = List.of(SandboxSettings.Confinement.AUTO, SandboxSettings.Confinement.AUTO.withoutBubblewrap(),
        SandboxSettings.Confinement.NONE);
    var series = new ArrayList<Series>();
    for (var mode : modes) {
      series.add(new Series(mode.mode(), new ArrayList<>(), new ArrayList<>(), new int[1], new String[] {"none"}));
    }
    String best = "";
    for (int round = 0; round < rounds; round++) {
      for (int m = 0; m < modes.size(); m++) {
        Series s = series.get(m);
        try (Sandbox sandbox = new Sandbox(base.withWorkers(1).withConfinement(modes.get(m)))) {
          sandbox.start();
          long t1 = System.nanoTime();
          if (round == 0) {
            String found = sandbox.confinement().level().id() + ", " + sandbox.confinement().launcher();
            if (m == 0) best = found;
            if (modes.get(m).probe()) s.label()[0] = found.split(",")[0] + " via " + found.split(", ", 2)[1].split(" ")[0];
          }
          if (!sandbox.awaitReady(Duration.ofSeconds(120))) throw new IllegalStateException("worker not ready");
          s.warmUps().add((System.nanoTime() - t1) / 1e6);
          for (int i = 0; i < 30 + runsPerRound; i++) {
            long t = System.nanoTime();
            RunResult r = sandbox.submit(RunRequest.run("bench", source)).get(30, TimeUnit.SECONDS);
            if (i < 30) continue;   // the JIT's warm-up of this source's path
            s.runs().add((System.nanoTime() - t) / 1e6);
            if (r.status() != Outcome.OK || !r.stdout().equals(expected)) s.errors()[0]++;
          }
        }
      }
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "Confinement: best here = %s; the app's start (the self-check's "
        + "probes, then HTTP) took %.0f ms; %d rounds, alternating%n%n", best, appStartMs, rounds);
    System.out.println("| Scenario | runs | errors | p50 ms | p99 ms | runs/s |");
    System.out.println("|---|---|---|---|---|---|");
    for (Series s : series) {
      System.out.println(row("worker warm-up (start to ready), confinement " + s.label()[0], s.warmUps(), 0));
    }
    for (Series s : series) {
      System.out.println(row("Sandbox.submit sink-demo, one after another, confinement " + s.label()[0], s.runs(),
          s.errors()[0]));
    }
    Series none = series.get(series.size() - 1);
    for (Series s : series.subList(0, series.size() - 1)) {
      System.out.printf(Locale.ROOT, "%n- %s: warm-up p50 / none: %.2fx (target <= 1.20x); run p50 / none: %.2fx "
          + "(target: unchanged within noise)", s.label()[0], p(s.warmUps(), 0.5) / p(none.warmUps(), 0.5),
          p(s.runs(), 0.5) / p(none.runs(), 0.5));
    }
    System.out.println();
  }

  private static String row(String name, List<Double> times, int errors) {
    return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.1f | - |", name, times.size(), errors,
        p(times, 0.50), p(times, 0.99));
  }

  private static double p(List<Double> times, double q) {
    double[] sorted = times.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    if (sorted.length == 0) return Double.NaN;
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
