package lab.exactlyonce.sandbox.engine;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time the JVM's garbage collection has used so far, which a run is charged for. On Linux it is read from
 * {@code /proc} for the threads that collect (the VM thread runs the serial collector's collections, which the
 * workers use; GC and G1 threads do the other collectors' work): CPU time, so a run on a busy machine is charged what
 * its collections computed, not how long they took while other processes had the cores (a worker keeping 200 MB
 * was charged over 2 s that way for collections that computed far less). Where there is no {@code /proc}, the
 * collectors' elapsed collection time stands in.
 */
final class CollectorTime {
  private static final Path TASKS = Path.of("/proc/self/task");
  /** Linux reports thread times in clock ticks of USER_HZ, which is 100. */
  private static final long NANOS_PER_TICK = TimeUnit.SECONDS.toNanos(1) / 100;
  private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();
  /** The collecting threads' stat files, found at start and again when one of them has gone. */
  private static volatile List<Path> collectorStats = findCollectorStats();
  /**
   * Decided once, so that a run's base and its later readings always come from the same source: a CPU time from
   * {@code /proc} less an elapsed time from the collectors would be no figure at all.
   */
  private static final boolean FROM_PROC = !collectorStats.isEmpty();

  private CollectorTime() {}

  static long nanos() {
    if (!FROM_PROC) {
      long millis = 0;
      for (GarbageCollectorMXBean gc : COLLECTORS) millis += Math.max(0, gc.getCollectionTime());
      return TimeUnit.MILLISECONDS.toNanos(millis);
    }
    List<Path> stats = collectorStats;
    if (stats == null) collectorStats = stats = findCollectorStats();
    long ticks = 0;
    for (Path stat : stats) {
      try {
        ticks += cpuTicks(Files.readString(stat));
      } catch (IOException | RuntimeException e) {
        collectorStats = null; // a collecting thread ended (its pool shrank): the list is made again next time
      }
    }
    return ticks * NANOS_PER_TICK;
  }

  private static List<Path> findCollectorStats() {
    List<Path> found = new ArrayList<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        String name = Files.readString(task.resolve("comm")).strip();
        if (name.equals("VM Thread") || name.startsWith("GC Thread") || name.startsWith("G1 ")) {
          found.add(task.resolve("stat"));
        }
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return List.copyOf(found);
  }

  /** utime + stime of one {@code stat} line: fields 14 and 15, counted after the parenthesised thread name. */
  static long cpuTicks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }
}
