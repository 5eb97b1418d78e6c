package lab.exactlyonce.sandbox.engine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the JVM's heap holds, for the memory limit, which counts the data a run keeps live rather than what it
 * allocates: a program that makes gigabytes of short-lived strings runs in a small heap under {@code java}, and must
 * here too. The heap in use is an upper bound of the live data and costs nothing to read; only when it is over the
 * limit does a full collection ({@link System#gc()}, a full stop-the-world collection with the workers' serial
 * collector) tell what is really live.
 *
 * <p>{@code System.gc()} may return without collecting: the JVM skips a collection while a thread is in a JNI
 * critical region (the zip inflater of a class loaded from a jar, for one) and one that another full collection made
 * redundant. The heap in use then still holds garbage, so a reading counts only when the full collector's count
 * shows that a collection ran.
 *
 * <p>A worker serves one run at a time, so what the heap holds beyond the engine's own data is the run's. The
 * engine's share is measured by a full collection before a run, at most once every {@value #SETTLE_SECONDS} s (a
 * warm engine changes little: its compile cache is bounded), so a run rarely waits for it.
 */
final class LiveHeap {
  /** What {@link #liveBytes()} answers when no collection ran, however often it asked. */
  static final long UNKNOWN = -1;
  private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
  /**
   * The collectors whose count a full collection raises: the serial collector's (the workers'), G1's and the parallel
   * collector's old-generation collectors (the in-process engine of the tests runs in the JVM's default). A collector
   * of another name counts too, so no other JVM is stuck without a verdict.
   */
  private static final List<GarbageCollectorMXBean> FULL_COLLECTORS = fullCollectors();
  private static final int COLLECTION_ATTEMPTS = 3;
  private static final long SETTLE_SECONDS = 30;
  private static long engineBytes = UNKNOWN;
  private static long settledAt;

  private LiveHeap() {}

  /** The heap in use now: live data plus the garbage not yet collected. */
  static long usedBytes() {
    return MEMORY.getHeapMemoryUsage().getUsed();
  }

  /**
   * The heap in use after a full collection: the live data; or {@link #UNKNOWN} when the JVM skipped every
   * collection asked for. The collection is charged to the run that asks.
   */
  static long liveBytes() {
    for (int attempt = 0; attempt < COLLECTION_ATTEMPTS; attempt++) {
      long before = fullCollections();
      System.gc();
      if (fullCollections() != before) return usedBytes();
      Thread.yield();   // a critical region lasts microseconds: let its thread leave it
    }
    return UNKNOWN;
  }

  private static List<GarbageCollectorMXBean> fullCollectors() {
    List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    Set<String> full = Set.of("MarkSweepCompact", "G1 Old Generation", "PS MarkSweep");
    List<GarbageCollectorMXBean> known = all.stream().filter(c -> full.contains(c.getName())).toList();
    return known.isEmpty() ? all : known;
  }

  private static long fullCollections() {
    long count = 0;
    for (GarbageCollectorMXBean collector : FULL_COLLECTORS) count += collector.getCollectionCount();
    return count;
  }

  /**
   * What the heap holds that is not the coming run's: the engine's live data as last measured, or the heap in use
   * now if that is less (the measurement was taken before garbage of the engine's own was collected).
   */
  static synchronized long engineBytes() {
    long now = System.nanoTime();
    if (engineBytes == UNKNOWN || now - settledAt > TimeUnit.SECONDS.toNanos(SETTLE_SECONDS)) {
      long live = liveBytes();
      if (live != UNKNOWN) {
        engineBytes = live;
        settledAt = now;
      }
    }
    return engineBytes == UNKNOWN ? usedBytes() : Math.min(engineBytes, usedBytes());
  }
}
