package lab.exactlyonce.classroom;

import lab.exactlyonce.web.RateLimiter;

import java.time.Clock;
import java.util.OptionalLong;

/**
 * How many wrong instructor secrets may be tried, and from where. Only failures count. A browser the instructor
 * signed in with before (it carries a device cookie) has a budget of its own, and so does the server's own machine
 * (a loopback address): nobody else's guessing can lock them out. Every other attempt shares a budget per address
 * and one for the whole server; each time the shared one runs dry, unknown browsers wait twice as long as the time
 * before (up to {@value #MAX_LOCK_SECONDS} s), so ten addresses cannot make a hundred guesses in a second.
 */
final class SignInThrottle {
  static final int PER_BROWSER_PER_MINUTE = 10;
  static final int PER_ADDRESS_PER_MINUTE = 10;
  static final int EVERYWHERE_PER_MINUTE = 30;
  static final long MAX_LOCK_SECONDS = 300;
  private static final String EVERYWHERE = "*";

  private final RateLimiter known;
  private final RateLimiter unknown;
  private final RateLimiter everywhere;
  private final Clock clock;
  private long lockedUntilMillis;
  private long lockSeconds;

  SignInThrottle(Clock clock) {
    this.clock = clock;
    this.known = new RateLimiter(PER_BROWSER_PER_MINUTE, clock);
    this.unknown = new RateLimiter(PER_ADDRESS_PER_MINUTE, clock);
    this.everywhere = new RateLimiter(EVERYWHERE_PER_MINUTE, clock);
  }

  /**
   * Whether an attempt may be checked now: empty when it may, else the seconds to wait. {@code device} is the
   * browser's device id when it carries a valid device cookie, else null.
   */
  synchronized OptionalLong before(String device, String address, boolean local) {
    if (device != null) return known.peek(device);
    if (local) return known.peek("local:" + address);
    long now = clock.millis();
    if (now < lockedUntilMillis) return OptionalLong.of(Math.max(1, (lockedUntilMillis - now + 999) / 1000));
    OptionalLong perAddress = unknown.peek(address);
    return perAddress.isPresent() ? perAddress : everywhere.peek(EVERYWHERE);
  }

  /** Counts a wrong secret against the budgets the attempt draws on. */
  synchronized void failed(String device, String address, boolean local) {
    if (device != null) {
      known.take(device);
      return;
    }
    if (local) {
      known.take("local:" + address);
      return;
    }
    unknown.take(address);
    if (everywhere.take(EVERYWHERE).isPresent() || everywhere.peek(EVERYWHERE).isPresent()) {
      lockSeconds = lockSeconds == 0 ? 1 : Math.min(MAX_LOCK_SECONDS, lockSeconds * 2);
      lockedUntilMillis = clock.millis() + lockSeconds * 1000;
    }
  }

  /** The right secret: the server-wide backoff starts again from its shortest. */
  synchronized void succeeded() {
    lockSeconds = 0;
    lockedUntilMillis = 0;
  }
}
