package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The uids confined processes run as when the server is root, one per live process: no worker can read, trace or
 * signal another through a shared uid, even where the host allows no namespaces. Handed out round the range, so a
 * uid just given back is the last to be taken again. A uid that some other process on the host runs as is passed
 * over while it does: another app instance whose range overlaps this one's (both left at the default) would otherwise
 * start its workers as the same uids, and a process outside every pid namespace can signal any process of its uid.
 */
public final class WorkerUids {
  private final int first;
  private final int count;
  private final BitSet taken;
  private final Supplier<Set<Integer>> elsewhere;
  private int next;

  /** A range whose uids are passed over while a process on this host runs as one of them. */
  public WorkerUids(int first, int last) {
    this(first, last, WorkerUids::runningOnHost);
  }

  /** @param elsewhere the uids other processes run as now, read at every {@link #take()} */
  WorkerUids(int first, int last, Supplier<Set<Integer>> elsewhere) {
    if (first < 1 || last < first) throw new IllegalArgumentException("not a uid range: " + first + "-" + last);
    this.first = first;
    this.count = last - first + 1;
    this.taken = new BitSet(count);
    this.elsewhere = elsewhere;
  }

  /** A uid no other live process of this app, nor any other process on the host, has. */
  public synchronized int take() {
    Set<Integer> busy = elsewhere.get();
    int busyHere = 0;
    for (int i = 0; i < count; i++) {
      int candidate = (next + i) % count;
      if (taken.get(candidate)) continue;
      if (busy.contains(first + candidate)) {
        busyHere++;
        continue;
      }
      taken.set(candidate);
      next = (candidate + 1) % count;
      return first + candidate;
    }
    throw new ConfinementException("all " + count + " worker uids (" + this + ") are in use"
        + (busyHere == 0 ? ": give --sandbox-worker-uids a wider range"
        : ", " + busyHere + " of them by processes outside this app: give --sandbox-worker-uids a range of its own"));
  }

  /** Gives back a uid whose process has ended. */
  public synchronized void give(int uid) {
    if (uid >= first && uid < first + count) taken.clear(uid - first);
  }

  /** How many uids the range holds. */
  public int size() {
    return count;
  }

  /** How many are in use now. */
  public synchronized int inUse() {
    return taken.cardinality();
  }

  /**
   * The real uids of the processes on this host now, from each one's {@code /proc/<pid>/status} (its directory's
   * owner would not do: a process that is not dumpable, as a confined worker is, shows root there). None where there
   * is no {@code /proc}.
   */
  static Set<Integer> runningOnHost() {
    var uids = new HashSet<Integer>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
        try {
          String uid = ConfinementProbe.status(p.resolve("status")).get("Uid");
          if (uid != null) uids.add(Integer.parseInt(uid));
        } catch (IOException | RuntimeException ended) {
          // the process ended while the list was read
        }
      });
    } catch (IOException | RuntimeException noProc) {
      return Set.of();
    }
    return uids;
  }

  @Override
  public String toString() {
    return count == 1 ? String.valueOf(first) : first + "-" + (first + count - 1);
  }
}
