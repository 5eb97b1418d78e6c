package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How worker uids are handed out: one per live process, round the range, never one another process runs as. */
class WorkerUidsTest {
  @Test
  void hands_out_round_the_range_so_a_uid_given_back_is_the_last_taken_again() {
    var uids = new WorkerUids(100, 102, Set::of);
    assertEquals(List.of(100, 101), List.of(uids.take(), uids.take()));
    uids.give(100);
    assertEquals(List.of(102, 100), List.of(uids.take(), uids.take()));
    ConfinementException e = assertThrows(ConfinementException.class, uids::take);
    assertEquals("all 3 worker uids (100-102) are in use: give --sandbox-worker-uids a wider range", e.getMessage());
  }

  @Test
  void passes_over_a_uid_another_process_on_the_host_runs_as_while_it_does() {
    var elsewhere = new ArrayList<Set<Integer>>(List.of(Set.of(100, 101), Set.of(101), Set.of(101)));
    var uids = new WorkerUids(100, 102, () -> elsewhere.remove(0));
    assertEquals(102, uids.take());
    assertEquals(100, uids.take(), "100 is free again on the host");
    ConfinementException e = assertThrows(ConfinementException.class, uids::take);
    assertEquals("all 3 worker uids (100-102) are in use, 1 of them by processes outside this app: give "
        + "--sandbox-worker-uids a range of its own", e.getMessage());
  }

  @Test
  void the_host_scan_sees_the_uid_this_process_runs_as() throws Exception {
    int own = Integer.parseInt(ConfinementProbe.status(Path.of("/proc/self/status")).get("Uid"));
    assertTrue(WorkerUids.runningOnHost().contains(own), "uid " + own + " among " + WorkerUids.runningOnHost());
  }
}
