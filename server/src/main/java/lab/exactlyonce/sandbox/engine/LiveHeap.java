package lab.exactlyonce.sandbox.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.TimeUnit;

/**
 * What the JVM's heap holds, for the memory limit, which counts the data a run keeps live rather than what it
 * allocates: a program that makes gigabytes of short-lived strings runs in a small heap under {@code java}, and must
 * here too. The heap in use is an upper bound of the live data and costs nothing to read; only when it is over the
 * limit does a full collection ({@link System#gc()}, a full stop-the-world collection with the workers' serial
 * collector) tell what is really live.
 *
 * <p>A worker serves one run at a time, so what the heap holds beyond the engine's own data is the run's. The
 * engine's share is measured by a full collection before a run, at most once every {@value #SETTLE_SECONDS} s (a
 * warm engine changes little: its compile cache is bounded), so a run rarely waits for it.
 */
final class LiveHeap {
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  private static final long SETTLE_SECONDS = 30;
  private static long engineBytes = -1;
  private static long settledAt;

  private LiveHeap() {}

  /** The heap in use now: live data plus the garbage not yet collected. */
  static long usedBytes() {
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  /** The heap in use after a full collection: the live data. The collection is charged to the run that asks. */
  static long liveBytes() {
    System.gc();
    return usedBytes();
  }

  /**
   * What the heap holds that is not the coming run's: the engine's live data as last measured, or the heap in use
   * now if that is less (the measurement was taken before garbage of the engine's own was collected).
   */
  static synchronized long engineBytes() {
    long now = System.nanoTime();
    if (engineBytes < 0 || now - settledAt > TimeUnit.SECONDS.toNanos(SETTLE_SECONDS)) {
      engineBytes = liveBytes();
      settledAt = now;
    }
    return Math.min(engineBytes, usedBytes());
  }
}
