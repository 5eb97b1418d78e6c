package lab.exactlyonce.sandbox.engine;

/**
 * Where a run's time went, to a hundredth of a millisecond (its {@code elapsedMs} is whole milliseconds).
 *
 * @param queueMs     waiting in the server's queue for a worker
 * @param workerMs    the worker's own time for the run: reading the request, compiling (or finding it compiled),
 *                    running, building the answer
 * @param roundTripMs from sending the run to the worker to reading its answer; what it has over {@code workerMs} is
 *                    the pipes and the protocol's JSON
 */
public record RunTiming(double queueMs, double workerMs, double roundTripMs) {
  public RunTiming {
    queueMs = hundredths(queueMs);
    workerMs = hundredths(workerMs);
    roundTripMs = hundredths(roundTripMs);
  }

  /** From nanosecond spans. */
  public static RunTiming ofNanos(long queueNanos, long workerNanos, long roundTripNanos) {
    return new RunTiming(queueNanos / 1e6, workerNanos / 1e6, roundTripNanos / 1e6);
  }

  private static double hundredths(double millis) {
    return Math.round(Math.max(0, millis) * 100) / 100.0;
  }
}
