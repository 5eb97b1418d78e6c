package lab.exactlyonce.sandbox.confinement;

import java.util.BitSet;

/**
 * The uids confined processes run as when the server is root, one per live process: no worker can read, trace or
 * signal another through a shared uid, even where the host allows no namespaces. Handed out round the range, so a
 * uid just given back is the last to be taken again.
 */
public final class WorkerUids {
  private final int first;
  private final int count;
  private final BitSet taken;
  private int next;

  public WorkerUids(int first, int last) {
    if (first < 1 || last < first) throw new IllegalArgumentException("not a uid range: " + first + "-" + last);
    this.first = first;
    this.count = last - first + 1;
    this.taken = new BitSet(count);
  }

  /** A uid no other live process of this app has. */
  public synchronized int take() {
    for (int i = 0; i < count; i++) {
      int candidate = (next + i) % count;
      if (!taken.get(candidate)) {
        taken.set(candidate);
        next = (candidate + 1) % count;
        return first + candidate;
      }
    }
    throw new ConfinementException("all " + count + " worker uids (" + this + ") are in use: give --sandbox-worker-uids "
        + "a wider range");
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

  @Override
  public String toString() {
    return count == 1 ? String.valueOf(first) : first + "-" + (first + count - 1);
  }
}
