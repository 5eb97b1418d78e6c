package lab.exactlyonce.bench;

import java.util.Arrays;
import java.util.Locale;

/** Percentiles of a set of durations (nearest rank), in milliseconds. */
public record LatencyStats(int count, double p50Millis, double p99Millis, double maxMillis) {

  public static LatencyStats ofNanos(long[] nanos) {
    if (nanos.length == 0) return new LatencyStats(0, Double.NaN, Double.NaN, Double.NaN);
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return new LatencyStats(sorted.length, millis(percentile(sorted, 50)), millis(percentile(sorted, 99)),
        millis(sorted[sorted.length - 1]));
  }

  /** Nearest-rank percentile of sorted values. */
  static long percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double millis(long nanos) {
    return nanos / 1_000_000.0;
  }

  static String format(double millis) {
    return Double.isNaN(millis) ? "-" : String.format(Locale.ROOT, "%.1f ms", millis);
  }
}
