package lab.exactlyonce.quiz;

import lab.exactlyonce.quiz.Fsrs.Card;
import lab.exactlyonce.quiz.Fsrs.Rating;
import lab.exactlyonce.quiz.Fsrs.Review;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What each rating button says: the wait the quiz's own scheduler gives the card for that rating now, never a fixed
 * table, in minutes for a learning step and days for a review, so Again and Hard never read the same.
 */
class RatingIntervalsTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private final Quiz quiz = new Quiz(null, null, null, Clock.fixed(NOW, ZoneOffset.UTC));
  private final Fsrs scheduler = Fsrs.forQuiz();

  private static List<String> labels(List<Interval> intervals) {
    return intervals.stream().map(Interval::label).toList();
  }

  /** What the scheduler itself schedules for {@code card} at each rating now, as waits. */
  private List<Duration> scheduled(Card card) {
    List<Duration> out = new ArrayList<>();
    for (Rating rating : Rating.values()) out.add(Duration.between(NOW, scheduler.review(card, rating, NOW).due()));
    return out;
  }

  @Test
  void a_new_question_comes_back_in_four_different_waits_from_the_learning_step_to_days() {
    List<Interval> intervals = quiz.intervals(null);
    assertEquals(scheduled(Card.fresh(NOW)), intervals.stream().map(Interval::length).toList());
    // Again: the quiz's one learning step; Hard: one and a half steps (90 s); Good and Easy: a first review.
    assertEquals(List.of(Fsrs.QUIZ_LEARNING_STEPS.get(0), Duration.ofSeconds(90), Duration.ofDays(2), Duration.ofDays(8)),
        intervals.stream().map(Interval::length).toList());
    assertEquals(List.of("1 min", "2 min", "2 days", "8 days"), labels(intervals));
    assertEquals(4, new HashSet<>(labels(intervals)).size(), "four different labels");
  }

  @Test
  void a_question_in_review_comes_back_from_relearning_after_again_and_in_days_otherwise() {
    // Good when new (review in 2 days), then Good again when due: a card in review, last seen today.
    Card card = scheduler.replay(NOW.minus(Duration.ofDays(2)),
        List.of(new Review(Rating.GOOD, NOW.minus(Duration.ofDays(2))), new Review(Rating.GOOD, NOW.minus(Duration.ofMinutes(1)))));
    assertEquals(Fsrs.State.REVIEW, card.state());
    List<Interval> intervals = quiz.intervals(card);
    assertEquals(scheduled(card), intervals.stream().map(Interval::length).toList());
    assertEquals(Fsrs.RELEARNING_STEPS.get(0), intervals.get(0).length(), "Again: the relearning step");
    assertEquals("10 min", intervals.get(0).label());
    for (Interval later : intervals.subList(1, 4)) assertEquals(0, later.length().toSeconds() % 86_400, later + " is whole days");
  }

  @Test
  void a_missed_question_comes_back_within_the_hour_and_the_feedback_says_so() {
    Card missed = scheduler.replay(NOW.minus(Duration.ofMinutes(5)), List.of(new Review(Rating.AGAIN, NOW.minus(Duration.ofMinutes(5)))));
    assertEquals(scheduled(missed), quiz.intervals(missed).stream().map(Interval::length).toList());
    assertEquals("in 1 min", quiz.comesBack(missed, Rating.AGAIN));
    assertEquals("in 2 min", quiz.comesBack(missed, Rating.HARD));
  }

  @ParameterizedTest(name = "{0} s reads {1}")
  @CsvSource({
      "0, 1 min", "30, 1 min", "60, 1 min", "89, 1 min", "90, 2 min", "600, 10 min", "3599, 60 min",
      "3600, 1 h", "10800, 3 h", "86400, 1 day", "172800, 2 days", "691200, 8 days", "-5, 1 min"})
  void a_wait_reads_in_the_unit_it_is_counted_in(long seconds, String label) {
    assertEquals(label, new Interval(Duration.ofSeconds(seconds)).label());
  }
}
