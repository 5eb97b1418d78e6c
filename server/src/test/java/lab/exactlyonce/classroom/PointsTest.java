package lab.exactlyonce.classroom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a live answer earns, as the board shows it: Kahoot's rule, with its half second free and a 0.1 s step. */
class PointsTest {
  @ParameterizedTest(name = "{0}: {1} ms of {2} s -> {3}")
  @CsvSource(delimiter = '|', value = {
      "true  |     0 | 20 | 1000",
      "true  |   499 | 20 | 1000",    // the first half second is free: network, not skill
      "true  |   500 | 20 |  988",    // round(1000 * (1 - 0.5 / 20 / 2)) = 987.5 -> 988
      "true  | 10000 | 20 |  750",    // half the countdown
      "true  | 10099 | 20 |  750",    // tenths of a second: a few milliseconds never decide a place
      "true  | 10100 | 20 |  748",
      "true  | 20000 | 20 |  500",    // the last moment
      "true  | 21500 | 20 |  500",    // still on its way after the deadline: counted as given at it
      "true  | 90000 |    | 1000",    // no time limit, no countdown: speed is not asked for
      "false |     0 | 20 |    0",
      "false |  5000 |    |    0",
  })
  void right_answers_earn_more_the_faster_they_come_and_wrong_ones_nothing(boolean correct, long millis, Integer limit,
                                                                            int points) {
    Duration countdown = limit == null ? null : Duration.ofSeconds(limit);
    assertEquals(points, Points.of(correct, Duration.ofMillis(millis), countdown));
  }
}
