package lab.exactlyonce.store;

import lab.exactlyonce.Race;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a crashed run left in the temp dir is removed at the next start; nothing of a live process, nothing unmarked. */
class TempDirsTest {
  @TempDir Path tmp;

  private Path marked(String name, String marker) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve(name));
    Files.writeString(dir.resolve("work.txt"), "a run's files");
    if (marker != null) Files.writeString(dir.resolve(TempDirs.MARKER), marker);
    return dir;
  }

  @Test
  void only_the_marked_dirs_of_ended_processes_are_removed() throws Exception {
    Process ended = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version").start();
    ended.waitFor();
    ProcessHandle self = ProcessHandle.current();
    String selfStart = self.info().startInstant().orElseThrow().toString();
    Path crashed = marked("eolab-sandbox-crashed", "pid=" + ended.pid() + "\nstarted=2026-01-01T00:00:00Z\n");
    Path reused = marked("eolab-sandbox-reused-pid", "pid=" + self.pid() + "\nstarted=2020-01-01T00:00:00Z\n");
    Path mine = marked("eolab-sandbox-mine", "pid=" + self.pid() + "\nstarted=" + selfStart + "\n");
    Path unmarked = marked("eolab-sandbox-unmarked", null);
    Path garbled = marked("eolab-sandbox-garbled", "hello");
    Path other = marked("someone-elses", "pid=" + ended.pid() + "\n");

    List<Path> removed = TempDirs.sweep(tmp);

    assertEquals(List.of(crashed, reused).stream().sorted().toList(), removed.stream().sorted().toList());
    assertFalse(Files.exists(crashed));
    assertFalse(Files.exists(reused), "a pid now used by another process is not the marker's");
    for (Path kept : List.of(mine, unmarked, garbled, other)) assertTrue(Files.exists(kept.resolve("work.txt")), kept.toString());
  }

  /** Two apps starting at once both sweep: neither fails on what the other removed under it. */
  @Test
  void sweeps_at_once_over_the_same_leftovers_all_succeed() throws Exception {
    Process ended = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version").start();
    ended.waitFor();
    List<Path> leftovers = new ArrayList<>();
    for (int d = 0; d < 4; d++) {
      Path dir = marked("eolab-sandbox-crashed-" + d, "pid=" + ended.pid() + "\nstarted=2026-01-01T00:00:00Z\n");
      for (int i = 0; i < 50; i++) {
        Path sub = Files.createDirectories(dir.resolve("classpath/" + i));
        for (int f = 0; f < 10; f++) Files.writeString(sub.resolve(f + ".class"), "bytes");
      }
      leftovers.add(dir);
    }

    List<List<Path>> removed = Race.run(4, i -> TempDirs.sweep(tmp));

    for (Path dir : leftovers) assertFalse(Files.exists(dir), dir.toString());
    assertTrue(removed.stream().allMatch(leftovers::containsAll), "each sweep names only leftovers: " + removed);
  }

  @Test
  void a_created_dir_is_marked_as_this_process_and_survives_a_sweep() throws Exception {
    Path dir = TempDirs.create("eolab-test-sweep-");
    try {
      assertTrue(Files.readString(dir.resolve(TempDirs.MARKER)).startsWith("pid=" + ProcessHandle.current().pid() + "\n"));
      assertFalse(TempDirs.sweep().contains(dir));
      assertTrue(Files.isDirectory(dir));
    } finally {
      DataDirectory.deleteTree(dir);
    }
  }
}
