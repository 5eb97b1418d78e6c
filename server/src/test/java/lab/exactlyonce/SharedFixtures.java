package lab.exactlyonce;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Where the fixtures that one test JVM shares across its classes are made: on a thread of their own thread group, so
 * that every thread they start (now, or later from their own threads) is in that group and {@link LeakCheck} can tell
 * them from threads a test class left behind.
 */
final class SharedFixtures {
  static final ThreadGroup GROUP = new ThreadGroup("eolab-shared-fixtures");

  private SharedFixtures() {}

  /** Runs {@code make} on a thread of {@link #GROUP} and returns what it made, or throws what it threw. */
  static <T> T make(String name, Supplier<T> make) {
    AtomicReference<T> made = new AtomicReference<>();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread maker = new Thread(GROUP, () -> {
      try {
        made.set(make.get());
      } catch (Throwable t) {
        failed.set(t);
      }
    }, "make-" + name);
    maker.start();
    try {
      maker.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while making " + name, e);
    }
    if (failed.get() instanceof RuntimeException e) throw e;
    if (failed.get() instanceof Error e) throw e;
    if (failed.get() != null) throw new IllegalStateException("cannot make " + name, failed.get());
    return made.get();
  }

  /** Whether {@code thread} belongs to a shared fixture. */
  static boolean owns(Thread thread) {
    for (ThreadGroup g = thread.getThreadGroup(); g != null; g = g.getParent()) if (g == GROUP) return true;
    return false;
  }
}
