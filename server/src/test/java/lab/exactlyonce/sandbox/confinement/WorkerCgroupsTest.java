package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-worker cgroup v1 caps on this machine (root: the pids and memory hierarchies are writable). */
class WorkerCgroupsTest {
  static Path own(String controller) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts[1].equals(controller)) return Path.of("/sys/fs/cgroup/" + controller + parts[2]);
    }
    throw new AssertionError("no cgroup v1 " + controller + " here");
  }

  @Test
  void a_worker_shell_joins_its_capped_groups_and_close_removes_them() throws Exception {
    WorkerCgroups cgroups = WorkerCgroups.create("test-sandbox", 300L << 20).orElseThrow();
    List<Path> procs = cgroups.enter("worker-1");
    Path pidsGroup = procs.get(0).getParent();
    Path memoryGroup = procs.get(1).getParent();
    assertEquals("512", Files.readString(pidsGroup.resolve("pids.max")).trim());
    assertEquals(String.valueOf(300L << 20), Files.readString(memoryGroup.resolve("memory.limit_in_bytes")).trim());
    Process shell = new ProcessBuilder("/bin/sh", "-c", WorkerCgroups.joinScript(procs) + "exec cat /proc/self/cgroup")
        .redirectErrorStream(true).start();
    String seen = new String(shell.getInputStream().readAllBytes());
    assertEquals(0, shell.waitFor());
    assertTrue(seen.lines().anyMatch(l -> l.contains(":pids:") && l.endsWith("test-sandbox/worker-1")), seen);
    assertTrue(seen.lines().anyMatch(l -> l.contains(":memory:") && l.endsWith("test-sandbox/worker-1")), seen);
    cgroups.close();
    assertFalse(Files.exists(pidsGroup.getParent()), "the sandbox's pids group is gone");
    assertFalse(Files.exists(memoryGroup.getParent()), "the sandbox's memory group is gone");
  }

  @Test
  void groups_left_by_a_server_that_ended_are_removed_at_the_next_start() throws Exception {
    Process ended = new ProcessBuilder("/bin/true").start();
    ended.waitFor();
    Path stale = own("pids").resolve("eolab-" + ended.pid() + "-eolab-sandbox-1");
    Files.createDirectories(stale.resolve("worker-1"));
    WorkerCgroups cgroups = WorkerCgroups.create("test-sandbox-2", 300L << 20).orElseThrow();
    try {
      assertFalse(Files.exists(stale), "the stale group is gone");
    } finally {
      cgroups.close();
    }
  }
}
