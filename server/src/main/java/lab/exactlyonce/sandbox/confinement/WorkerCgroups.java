package lab.exactlyonce.sandbox.confinement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Per-worker process and memory caps through cgroup v1 {@code pids} and {@code memory}, where this server may
 * create groups (as root on a host; in Docker the cgroup mounts are read-only: use {@code docker run --pids-limit
 * --memory}). Each worker gets its own group under one group of this sandbox; the worker's first process moves itself
 * in before it execs anything, so everything it starts is counted and capped, through bubblewrap too.
 */
public final class WorkerCgroups {
  private static final Logger log = LoggerFactory.getLogger(WorkerCgroups.class);
  /** Processes and threads per worker: a JVM running the engine uses a few dozen; a fork bomb stops here. */
  public static final int PIDS_MAX = 512;
  /** Groups are named {@code eolab-<server pid>-<sandbox>}, so a later start can tell which ones were left behind. */
  private static final String PREFIX = "eolab-";

  private final Path pids;
  private final Path memory;
  private final long memoryBytes;

  private WorkerCgroups(Path pids, Path memory, long memoryBytes) {
    this.pids = pids;
    this.memory = memory;
    this.memoryBytes = memoryBytes;
  }

  /**
   * This sandbox's groups, or empty where cgroup v1 pids and memory are not both there and writable.
   *
   * @param sandbox a name of this sandbox's own (its temporary directory's)
   * @param memoryBytes the memory cap of one worker (heap, metaspace, code cache and threads together)
   */
  public static Optional<WorkerCgroups> create(String sandbox, long memoryBytes) {
    Optional<Path> pids = own("pids");
    Optional<Path> memory = own("memory");
    if (pids.isEmpty() || memory.isEmpty()) return Optional.empty();
    sweepStale(pids.get());
    sweepStale(memory.get());
    String name = PREFIX + ProcessHandle.current().pid() + "-" + sandbox;
    Path p = pids.get().resolve(name);
    Path m = memory.get().resolve(name);
    try {
      Files.createDirectory(p);
      Files.createDirectory(m);
      return Optional.of(new WorkerCgroups(p, m, memoryBytes));
    } catch (IOException | RuntimeException e) {
      remove(p);
      remove(m);
      log.info("sandbox: no per-worker cgroup caps here ({})", e.toString());
      return Optional.empty();
    }
  }

  /** Creates the groups of one worker with their caps; the worker's first process writes itself to these files. */
  public List<Path> enter(String worker) throws IOException {
    Path p = pids.resolve(worker);
    Path m = memory.resolve(worker);
    Files.createDirectories(p);
    Files.createDirectories(m);
    Files.writeString(p.resolve("pids.max"), String.valueOf(PIDS_MAX));
    Files.writeString(m.resolve("memory.limit_in_bytes"), String.valueOf(memoryBytes));
    return List.of(p.resolve("cgroup.procs"), m.resolve("cgroup.procs"));
  }

  /** Removes a worker's groups once its processes are gone. */
  public void release(String worker) {
    remove(pids.resolve(worker));
    remove(memory.resolve(worker));
  }

  /** Removes this sandbox's groups, waiting a little for the last processes of killed workers to be gone. */
  public void close() {
    long deadline = System.nanoTime() + 2_000_000_000L;
    for (Path group : List.of(pids, memory)) removeTree(group, deadline);
  }

  /**
   * Removes the groups of servers that have ended without closing their sandbox (a test run's JVM, a killed
   * server): the kernel refuses to remove a group that still has processes, so this never touches a running worker.
   */
  private static void sweepStale(Path parent) {
    try (var groups = Files.list(parent)) {
      groups.filter(g -> Files.isDirectory(g) && ownerEnded(g.getFileName().toString()))
          .forEach(g -> removeTree(g, System.nanoTime()));
    } catch (IOException | RuntimeException e) {
      log.debug("sandbox: could not look for stale cgroups in {}: {}", parent, e.toString());
    }
  }

  private static boolean ownerEnded(String group) {
    if (!group.startsWith(PREFIX)) return false;
    String pid = group.substring(PREFIX.length()).split("-", 2)[0];
    return pid.matches("[0-9]{1,18}") && ProcessHandle.of(Long.parseLong(pid)).isEmpty();
  }

  /** Removes a group and its child groups, each once its processes are gone or {@code deadline} has passed. */
  private static void removeTree(Path group, long deadline) {
    try (var children = Files.list(group)) {
      for (Path child : (Iterable<Path>) children.filter(Files::isDirectory)::iterator) removeTree(child, deadline);
    } catch (IOException | RuntimeException e) {
      return;   // already gone
    }
    try {
      // a killed worker's JVM ends a moment after the process the pool waited for (its parent, bubblewrap)
      while (System.nanoTime() < deadline && !Files.readString(group.resolve("cgroup.procs")).isBlank()) {
        Thread.sleep(20);
      }
    } catch (IOException | RuntimeException e) {
      // cannot tell: try to remove it anyway
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    remove(group);
  }

  @Override
  public String toString() {
    return "cgroup caps per worker: " + PIDS_MAX + " processes, " + (memoryBytes >> 20) + " MiB";
  }

  /** The directory of this process's own group of a v1 controller, if it is mounted and writable. */
  private static Optional<Path> own(String controller) {
    Path mount = Path.of("/sys/fs/cgroup", controller);
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        String[] parts = line.split(":", 3);
        if (parts.length == 3 && List.of(parts[1].split(",")).contains(controller)) {
          Path dir = Path.of(mount + parts[2]);
          return Files.isDirectory(dir) && Files.isWritable(dir) && Files.exists(dir.resolve("cgroup.procs"))
              ? Optional.of(dir) : Optional.empty();
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc or no cgroup v1
    }
    return Optional.empty();
  }

  private static void remove(Path group) {
    try {
      Files.deleteIfExists(group);   // rmdir: the kernel refuses while processes are in it
    } catch (IOException e) {
      log.debug("sandbox: could not remove cgroup {}: {}", group, e.toString());
    }
  }

  /** The shell line that moves the shell into {@code procs} files (they are paths this class made: no quotes). */
  static String joinScript(List<Path> procs) {
    var script = new StringBuilder();
    for (Path file : procs) {
      if (file.toString().contains("'")) throw new IllegalArgumentException("unexpected cgroup path " + file);
      script.append("echo $$ > '").append(file).append("' && ");
    }
    return script.toString();
  }
}
