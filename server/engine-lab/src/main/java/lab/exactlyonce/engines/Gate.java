package lab.exactlyonce.engines;

import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * The scenario driver's hold on the Flink job, which runs in this same JVM: the source emits a record only when the
 * driver lets it, so a checkpoint's barrier falls exactly after the record the knob names (periodic checkpoints are
 * placed by time, not by record). The job's operators report back what they processed and which attempt they are.
 * Static because Flink serializes the job's functions: they find the driver through the class, not a reference.
 */
final class Gate {
  enum Crash { NONE, AFTER_RECORDS, BEFORE_COMPLETE, BEFORE_COMMIT }

  private static final Object LOCK = new Object();
  private static CompletableFuture<Void> waiting;
  private static int credits;
  private static int limiters;
  private static long lastIndex = -1;
  private static int lastAttempt = -1;
  private static volatile Crash crash = Crash.NONE;
  private static volatile boolean armed;
  private static volatile Events events;
  private static boolean open;

  private Gate() {}

  static void reset(Events log, Crash mode) {
    synchronized (LOCK) {
      waiting = null;
      credits = 0;
      limiters = 0;
      lastIndex = -1;
      lastAttempt = -1;
      crash = mode;
      armed = false;
      open = false;
      events = log;
    }
  }

  static Crash crash() {
    return crash;
  }

  /** The crash at a checkpoint fires only at the one the driver arms, so earlier checkpoints go through. */
  static void arm() {
    armed = true;
  }

  static boolean armed() {
    return armed;
  }

  static void event(String kind, String text) {
    event(kind, text, null);
  }

  static void event(String kind, String text, Map<String, Object> trace) {
    Events log = events;
    if (log != null) log.add(kind, text, trace);
  }

  /** Lets the source emit one more record. */
  static void permit() {
    synchronized (LOCK) {
      if (waiting != null) {
        CompletableFuture<Void> next = waiting;
        waiting = null;
        next.complete(null);
      } else {
        credits++;
      }
    }
  }

  /** Lets the source read on without waiting: past the last order, so it can see the end of its input. */
  static void openUp() {
    synchronized (LOCK) {
      open = true;
      if (waiting != null) waiting.complete(null);
      waiting = null;
    }
  }

  private static CompletionStage<Void> acquire() {
    synchronized (LOCK) {
      if (open) return CompletableFuture.completedFuture(null);
      if (credits > 0) {
        credits--;
        return CompletableFuture.completedFuture(null);
      }
      waiting = new CompletableFuture<>();
      return waiting;
    }
  }

  /** A new source reader: the first attempt, or the restarted job's. Whatever the dead one waited for is dropped. */
  private static void newReader() {
    synchronized (LOCK) {
      waiting = null;
      credits = 0;
      limiters++;
      LOCK.notifyAll();
    }
  }

  static void processed(int attempt, long index) {
    synchronized (LOCK) {
      lastAttempt = attempt;
      lastIndex = index;
      LOCK.notifyAll();
    }
  }

  static void awaitProcessed(int attempt, long index, Duration timeout) {
    await(() -> lastAttempt == attempt && lastIndex >= index, timeout,
        "record " + (index + 1) + " was not processed by attempt " + (attempt + 1));
  }

  static void awaitReaders(int count, Duration timeout) {
    await(() -> limiters >= count, timeout, "the job did not restart");
  }

  private static void await(BooleanSupplier condition, Duration timeout, String failure) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (LOCK) {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) throw new IllegalStateException(failure);
        try {
          LOCK.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(failure, e);
        }
      }
    }
  }

  /** Each record waits for the driver's permit; a restarted reader starts with none. */
  static final class Strategy implements RateLimiterStrategy<NumberSequenceSplit> {
    private static final long serialVersionUID = 1L;

    @Override
    public RateLimiter<NumberSequenceSplit> createRateLimiter(int parallelism) {
      newReader();
      return permits -> acquire();
    }
  }
}
