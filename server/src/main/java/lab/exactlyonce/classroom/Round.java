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

  /** The time students have to answer, or null for a round without a time limit. */
  Duration limit() {
    return deadline == null ? null : Duration.between(pushedAt, deadline);
  }

  /** How long after the push an answer that arrived at {@code at} came. */
  Duration responseTime(Instant at) {
    return Duration.between(pushedAt, at);
  }

  /** The {@link Points} an answer to this round that arrived at {@code at} earns. */
  int points(boolean correct, Instant at) {
    return Points.of(correct, responseTime(at), limit());
  }

  /** The time left to answer at {@code now}: empty without a limit, zero once it is up. */
  Optional<Duration> left(Instant now) {
    if (deadline == null) return Optional.empty();
    Duration left = Duration.between(now, deadline);
    return Optional.of(left.isNegative() ? Duration.ZERO : left);
  }

  /**
   * How long after the deadline an answer is still taken: a phone shows the countdown from when the question reached
   * it, so a tap in its last second is still on its way (over a school's Wi-Fi, to a server busy with a whole class)
   * when the server's time is up. Pages close the question at the deadline; only answers already sent arrive later.
   */
  static final Duration IN_FLIGHT_GRACE = Duration.ofSeconds(2);

  /** Whether an answer arriving at {@code now} is too late: past the deadline and its grace (never without one). */
  boolean closedToAnswers(Instant now) {
    return deadline != null && !now.isBefore(deadline.plus(IN_FLIGHT_GRACE));
  }
}
