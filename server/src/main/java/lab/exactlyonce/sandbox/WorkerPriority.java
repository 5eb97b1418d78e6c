package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.HostTools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Lowers a heavy-lane worker to its nice value once it is warm. Started under {@code nice}, a JVM on a host whose
 * cores are busy gets a small fraction of a core while it warms up, and a replacement for a crashed worker took
 * longer than the runs waiting for it were allowed to wait. Linux keeps a nice value per thread and a new thread
 * inherits its creator's, so every thread of the worker's process tree is lowered, pass after pass until a pass
 * finds none left at another value.
 */
final class WorkerPriority {
  private static final Path RENICE = HostTools.find("renice");
  private static final int PASSES = 5;

  private WorkerPriority() {
  }

  /** Whether workers can be lowered once warm; where not, they start under {@code nice}. */
  static boolean available() {
    return Files.isExecutable(RENICE);
  }

  /**
   * Gives every thread of {@code root} and its descendants the nice value {@code nice}.
   *
   * @throws IOException if renice fails or some thread still has another value after the last pass
   */
  static void lower(ProcessHandle root, int nice) throws IOException {
    if (niceOf(Path.of("/proc", String.valueOf(root.pid()))) == null) {
      throw new IOException("cannot read the priority of process " + root.pid() + " in /proc");
    }
    for (int pass = 0; pass < PASSES; pass++) {
      List<String> others = threadsNotAt(root, nice);
      if (others.isEmpty()) return;
      List<String> command = new ArrayList<>(List.of(RENICE.toString(), "--priority", String.valueOf(nice), "-p"));
      command.addAll(others);
      // What it prints is not needed: the values are read back from /proc.
      Process renice = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      try {
        if (!renice.waitFor(5, TimeUnit.SECONDS)) {
          renice.destroyForcibly();
          throw new IOException("renice did not finish in 5 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while lowering a worker's priority", e);
      }
      // A thread that ended meanwhile makes renice fail for its id; the next pass reads the threads again.
    }
    List<String> left = threadsNotAt(root, nice);
    if (!left.isEmpty()) throw new IOException("threads " + left + " kept another priority than nice " + nice);
  }

  /** The thread ids in {@code root}'s process tree whose nice value is not {@code nice}. */
  static List<String> threadsNotAt(ProcessHandle root, int nice) {
    List<String> others = new ArrayList<>();
    Stream.concat(Stream.of(root), root.descendants()).forEach(p -> {
      try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(p.pid()), "task"))) {
        tasks.forEach(task -> {
          Integer value = niceOf(task);
          if (value != null && value != nice) others.add(task.getFileName().toString());
        });
      } catch (IOException | RuntimeException e) {
        // the process ended between listing and reading: nothing of it is left to lower
      }
    });
    return others;
  }

  /** The nice value of the process or thread at {@code /proc/<pid>} or {@code /proc/<pid>/task/<tid>}, or null once it has ended. */
  static Integer niceOf(Path task) {
    try {
      String stat = Files.readString(task.resolve("stat"));
      // after the command name in parentheses, which may itself hold spaces: state is field 3, nice field 19
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Integer.parseInt(fields[16]);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
