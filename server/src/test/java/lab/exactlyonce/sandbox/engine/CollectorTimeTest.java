package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a run is charged for garbage collection: the collecting threads' CPU time, read from /proc on Linux. */
class CollectorTimeTest {

  @Test
  void a_thread_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
    String stat = "4242 (VM Thread (x) 1) S 1 1 1 0 -1 1077936192 0 0 0 0 37 5 0 0 20 0 1 0 100 0 0";
    assertEquals(42, CollectorTime.cpuTicks(stat));
  }

  @Test
  void collections_slowed_by_busy_cores_are_charged_what_they_computed_not_how_long_they_took() throws Exception {
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    var threads = ManagementFactory.getThreadMXBean();
    // Busy threads take the cores from the collector, as other runs and processes do on a loaded host.
    AtomicBoolean spin = new AtomicBoolean(true);
    List<Thread> spinners = new ArrayList<>();
    for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
      Thread t = new Thread(() -> {
        long x = 0;
        while (spin.get()) x++;
        if (x == 42) System.out.print("");
      }, "busy-" + i);
      t.setDaemon(true);
      t.start();
      spinners.add(t);
    }
    try {
      long spinBefore = 0;
      for (Thread t : spinners) spinBefore += threads.getThreadCpuTime(t.getId());
      long processBefore = os.getProcessCpuTime();
      long before = CollectorTime.nanos();
      List<long[]> kept = new ArrayList<>();
      for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 256; i++) kept.add(new long[16_384]);
        System.gc();
        kept.clear();
      }
      long charged = CollectorTime.nanos() - before;
      long spun = -spinBefore;
      for (Thread t : spinners) spun += threads.getThreadCpuTime(t.getId());
      long others = os.getProcessCpuTime() - processBefore - spun;
      assertTrue(charged > 0, "twenty full collections were charged nothing");
      // Ticks of 10 ms: a reading may round up by one tick per collecting thread.
      assertTrue(charged <= others + 100_000_000L,
          "charged " + charged / 1_000_000 + " ms for collections; all but the busy threads computed " + others / 1_000_000 + " ms");
    } finally {
      spin.set(false);
      for (Thread t : spinners) t.join();
    }
  }
}
