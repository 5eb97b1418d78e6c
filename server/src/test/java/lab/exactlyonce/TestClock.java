package lab.exactlyonce;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The tests' clock: it starts at {@link #BASE}, mid-day UTC on a fixed date, and runs on with real elapsed time plus
 * whatever a test has {@linkplain #advance moved it on} by. So no test depends on the time of day (a question due
 * "in a minute" is due today), every run sees the same calendar day, and a test waits for a deadline, an expiry or a
 * rate limit's refill by moving the clock instead of sleeping. {@link TestConfig#defaults()} gives every config a new
 * one; apps that share a database must share one ({@link Config#withClock}), or their times differ by the gap
 * between their starts.
 */
public final class TestClock extends Clock {
  /** When every test clock starts. */
  public static final Instant BASE = Instant.parse("2025-06-18T12:00:00Z");

  private final Time time;
  private final ZoneId zone;

  public TestClock() {
    this(new Time(System.nanoTime()), ZoneOffset.UTC);
  }

  private TestClock(Time time, ZoneId zone) {
    this.time = time;
    this.zone = zone;
  }

  /** The clock of {@code config}, which {@link TestConfig#defaults()} (or {@link Config#withClock}) made a test clock. */
  public static TestClock of(Config config) {
    if (config.clock() instanceof TestClock clock) return clock;
    throw new IllegalStateException("the config's clock is " + config.clock() + ", not a TestClock: start from "
        + "TestConfig.defaults()");
  }

  /** Moves this clock (and every app reading it) on by {@code by}; time never runs backwards. */
  public TestClock advance(Duration by) {
    if (by.isNegative()) throw new IllegalArgumentException("a test clock only moves forward, not by " + by);
    time.advance(by.toNanos());
    return this;
  }

  /**
   * Stops the real time's part where it is, so from now on only {@link #advance} moves the clock: for a test whose
   * assertion holds only if no time passes, such as counting what a rate limit lets through while it refills.
   */
  public TestClock stop() {
    time.stop();
    return this;
  }

  @Override
  public Instant instant() {
    return BASE.plusNanos(time.elapsedNanos());
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** The same clock, moved on and stopped together, shown in another zone. */
  @Override
  public Clock withZone(ZoneId other) {
    return other.equals(zone) ? this : new TestClock(time, other);
  }

  @Override
  public String toString() {
    return "TestClock[" + instant() + "]";
  }

  /** How far a clock (and its other zones) has run since {@link #BASE}. */
  private static final class Time {
    private final long startNanos;
    private long advancedNanos;
    private long stoppedAtNanos = -1;   // real time elapsed when stopped; -1 while it runs

    Time(long startNanos) {
      this.startNanos = startNanos;
    }

    synchronized long elapsedNanos() {
      long real = stoppedAtNanos >= 0 ? stoppedAtNanos : System.nanoTime() - startNanos;
      return real + advancedNanos;
    }

    synchronized void advance(long nanos) {
      advancedNanos += nanos;
    }

    synchronized void stop() {
      if (stoppedAtNanos < 0) stoppedAtNanos = System.nanoTime() - startNanos;
    }
  }
}
