package lab.exactlyonce.quiz;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How long until a question comes back, as a rating button and the feedback say it: "1 min", "10 min", "3 h",
 * "1 day", "8 days". A learning step is minutes and a review is whole days, so a day-granular word ("today") would
 * make Again and Hard read the same though the scheduler keeps them apart.
 */
record Interval(Duration length) {
  private static final long MINUTE = 60;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  Interval {
    Objects.requireNonNull(length, "length");
    if (length.isNegative()) length = Duration.ZERO;
  }

  /** From {@code now} until {@code due}; an overdue question comes back at once. */
  static Interval until(Instant now, Instant due) {
    return new Interval(Duration.between(now, due));
  }

  /**
   * Rounded to the unit it is counted in: minutes under an hour (at least one: "now" is not a wait a button can
   * promise), hours under a day, days beyond. A one-step Hard of 90 s reads "2 min", apart from Again's "1 min".
   */
  String label() {
    long seconds = length.toSeconds();
    if (seconds < HOUR) return Math.max(1, Math.round(seconds / (double) MINUTE)) + " min";
    if (seconds < DAY) return Math.round(seconds / (double) HOUR) + " h";
    long days = Math.round(seconds / (double) DAY);
    return days == 1 ? "1 day" : days + " days";
  }
}
