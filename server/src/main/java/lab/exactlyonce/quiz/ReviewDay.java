package lab.exactlyonce.quiz;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The day a review falls on, in the words the reviews-due notice uses for the next one: "today", "tomorrow", "in 3
 * days". Days are UTC calendar days, the same days the due count goes by. (A rating button says how long until the
 * question comes back in minutes or days instead, {@link Interval}: a day word made Again and Hard both "today".)
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
