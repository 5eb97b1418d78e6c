package lab.exactlyonce.bench;

import java.util.List;
import java.util.Locale;

/** One benchmark scenario's row: how many runs, how many wrong, latency percentiles in ms, throughput. */
record Stats(String scenario, int runs, int errors, double p50, double p99, double perSecond) {
  /** The row of {@code times} (ms), unnamed; {@code seconds} is the wall time they took, or 0 for no throughput. */
  static Stats of(List<Double> times, int errors, double seconds) {
    if (times.isEmpty()) return new Stats("", 0, errors, Double.NaN, Double.NaN, 0);
    double[] sorted = times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return new Stats("", sorted.length, errors, percentile(sorted, 0.50), percentile(sorted, 0.99),
        seconds > 0 ? sorted.length / seconds : 0);
  }

  Stats named(String name) {
    return new Stats(name, runs, errors, p50, p99, perSecond);
  }

  String row() {
    return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.1f | %s |", scenario, runs, errors, p50, p99,
        perSecond > 0 ? String.format(Locale.ROOT, "%.0f", perSecond) : "-");
  }

  private static double percentile(double[] sorted, double q) {
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}
