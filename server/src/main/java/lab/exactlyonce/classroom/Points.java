package lab.exactlyonce.classroom;

import java.time.Duration;

/**
 * The points one live answer earns, Kahoot's rule: a right answer earns
 * {@code round(1000 * (1 - (responseTime / timeLimit) / 2))}, so from 1000 for an instant answer down to 500 for one
 * in the countdown's last moment; a wrong answer earns 0. Two small changes make it fair on a school's Wi-Fi: the
 * response time is counted in whole tenths of a second, and the first half second is free (as Kahoot gives full
 * points within 0.5 s), so a few milliseconds of network never decide a place. An answer still on its way after the
 * deadline (the in-flight grace) counts as given at the deadline. A question without a time limit shows no countdown,
 * so speed is not asked for: a right answer earns the full 1000.
 */
final class Points {
  static final int MAX = 1000;
  /** Answers faster than this earn the full points: nobody reads a question quicker, so it is network, not skill. */
  static final Duration FREE = Duration.ofMillis(500);
  private static final long STEP_MILLIS = 100;

  private Points() {}

  /**
   * @param response from the question's push to the answer's arrival
   * @param limit the question's time limit, or null for none
   */
  static int of(boolean correct, Duration response, Duration limit) {
    if (!correct) return 0;
    if (limit == null || limit.isZero() || limit.isNegative()) return MAX;
    long taken = response.toMillis() / STEP_MILLIS * STEP_MILLIS;
    if (taken < FREE.toMillis()) taken = 0;
    taken = Math.min(taken, limit.toMillis());
    return (int) Math.round(MAX * (1 - (double) taken / limit.toMillis() / 2));
  }

  /** "1 point", "875 points". */
  static String words(int points) {
    return points + (points == 1 ? " point" : " points");
  }
}
