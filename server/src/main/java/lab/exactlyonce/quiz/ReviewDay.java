package lab.exactlyonce.quiz;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * When a question comes back, in the words a rating button and the feedback use: "today", "tomorrow", "in 3 days".
 * Days are UTC calendar days, the same days the due count goes by.
 */
final class ReviewDay {
  private ReviewDay() {}

  static String of(Instant due, Instant now) {
    long days = ChronoUnit.DAYS.between(day(now), day(due));
    if (days <= 0) return "today";
    if (days == 1) return "tomorrow";
    return "in " + days + " days";
  }

  /** The last instant of the UTC day {@code now} falls on: a question due by then is due today. */
  static Instant endOfDay(Instant now) {
    return day(now).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusNanos(1);
  }

  private static LocalDate day(Instant at) {
    return LocalDate.ofInstant(at, ZoneOffset.UTC);
  }
}
