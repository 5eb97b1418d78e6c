package lab.exactlyonce.classroom;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One question pushed to a class in a live session; {@code revealedAt} is set when its answer was shown.
 *
 * @param deadline when answers stop being accepted, or null for a round without a time limit
 */
record Round(String id, String classId, String session, String questionId, Instant pushedAt, Instant revealedAt,
             Instant deadline) {
  boolean revealed() {
    return revealedAt != null;
  }

  /** The time left to answer at {@code now}: empty without a limit, zero once it is up. */
  Optional<Duration> left(Instant now) {
    if (deadline == null) return Optional.empty();
    Duration left = Duration.between(now, deadline);
    return Optional.of(left.isNegative() ? Duration.ZERO : left);
  }

  /** Whether the time limit has run out at {@code now} (never without one). */
  boolean timeUp(Instant now) {
    return deadline != null && !now.isBefore(deadline);
  }
}
