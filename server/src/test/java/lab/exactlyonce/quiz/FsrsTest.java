package lab.exactlyonce.quiz;

import lab.exactlyonce.quiz.Fsrs.Card;
import lab.exactlyonce.quiz.Fsrs.Rating;
import lab.exactlyonce.quiz.Fsrs.Review;
import lab.exactlyonce.quiz.Fsrs.State;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Known scheduling values of the FSRS-6 reference implementation py-fsrs 6.x (open-spaced-repetition/py-fsrs,
 * {@code tests/test_basic.py}: {@code test_review_card} asserts the interval history
 * {@code [0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21]}, {@code test_memo_state} asserts stability 53.62691 and
 * difficulty 6.3574867, both with {@code Scheduler(enable_fuzzing=False)} and the default FSRS-6 parameters; ts-fsrs
 * carries the same vectors). Older py-fsrs releases (FSRS-5 weights) give 497/20 and 53.3825 instead.
 */
class FsrsTest {
  private final Fsrs fsrs = new Fsrs();
  private static final Instant START = Instant.parse("2022-11-29T12:30:00Z");

  @Test
  void first_rating_sets_stability_to_w0_to_w3_and_difficulty_from_w4_w5() {
    double[] w = Fsrs.DEFAULT_PARAMETERS;
    for (Rating rating : Rating.values()) {
      Card card = fsrs.review(Card.fresh(START), rating, START);
      assertEquals(w[rating.value() - 1], card.stability(), 1e-12, "S0 for " + rating);
      double d0 = Math.min(10, Math.max(1, w[4] - Math.exp(w[5] * (rating.value() - 1)) + 1));
      assertEquals(d0, card.difficulty(), 1e-12, "D0 for " + rating);
    }
    // numbers: S0 = 0.212, 1.2931, 2.3065, 8.2956 for Again, Hard, Good, Easy
    assertEquals(2.3065, fsrs.review(Card.fresh(START), Rating.GOOD, START).stability(), 1e-12);
  }

  /** py-fsrs test_review_card: each review happens when the card falls due; intervals in whole days. */
  @Test
  void a_known_rating_sequence_gives_the_reference_intervals() {
    Rating g = Rating.GOOD;
    Rating a = Rating.AGAIN;
    List<Rating> ratings = List.of(g, g, g, g, g, g, a, a, g, g, g, g, g);
    Card card = Card.fresh(START);
    Instant at = START;
    List<Long> intervals = new ArrayList<>();
    for (Rating rating : ratings) {
      card = fsrs.review(card, rating, at);
      intervals.add(Duration.between(card.lastReview(), card.due()).toDays());
      at = card.due();
    }
    assertEquals(List.of(0L, 2L, 11L, 46L, 163L, 498L, 0L, 0L, 2L, 4L, 7L, 12L, 21L), intervals);
  }

  /** py-fsrs test_memo_state: stability 53.62691 and difficulty 6.3574867 after this history. */
  @Test
  void replaying_a_history_derives_the_reference_memory_state() {
    List<Rating> ratings = List.of(Rating.AGAIN, Rating.GOOD, Rating.GOOD, Rating.GOOD, Rating.GOOD, Rating.GOOD);
    int[] gapsDays = {0, 0, 1, 3, 8, 21};
    List<Review> reviews = new ArrayList<>();
    Instant at = START;
    for (int i = 0; i < ratings.size(); i++) {
      at = at.plus(Duration.ofDays(gapsDays[i]));
      reviews.add(new Review(ratings.get(i), at));
    }
    Card card = fsrs.replay(START, reviews);
    assertEquals(53.62691, card.stability(), 1e-4);
    assertEquals(6.3574867, card.difficulty(), 1e-4);
    assertEquals(Instant.parse("2023-02-24T12:30:00Z"), card.due()); // 33 + 21 days later: interval 54 days
  }

  @Test
  void replay_does_not_depend_on_the_order_events_are_read_in() {
    List<Review> history = List.of(new Review(Rating.GOOD, START), new Review(Rating.GOOD, START.plusSeconds(600)),
        new Review(Rating.HARD, START.plus(Duration.ofDays(3))));
    List<Review> shuffled = List.of(history.get(2), history.get(0), history.get(1));
    assertEquals(fsrs.replay(START, history), fsrs.replay(START, shuffled));
  }

  @Test
  void learning_steps_then_review_then_relearning() {
    Card card = fsrs.review(Card.fresh(START), Rating.GOOD, START);
    assertEquals(State.LEARNING, card.state());
    assertEquals(Duration.ofMinutes(10), Duration.between(START, card.due()));
    card = fsrs.review(card, Rating.GOOD, card.due());
    assertEquals(State.REVIEW, card.state());
    assertNull(card.step());
    Instant due = card.due();
    card = fsrs.review(card, Rating.AGAIN, due);
    assertEquals(State.RELEARNING, card.state());
    assertEquals(Duration.ofMinutes(10), Duration.between(due, card.due()));
    Card easy = fsrs.review(Card.fresh(START), Rating.EASY, START);
    assertEquals(State.REVIEW, easy.state());
    assertEquals(8, Duration.between(START, easy.due()).toDays()); // S0(Easy) = 8.2956 days at retention 0.9
  }

  @Test
  void in_the_quiz_a_right_first_answer_leaves_learning_at_once_and_a_miss_comes_back_in_a_minute() {
    Fsrs quiz = Fsrs.forQuiz();
    Card good = quiz.review(Card.fresh(START), Rating.GOOD, START);
    assertEquals(State.REVIEW, good.state());
    assertEquals(Duration.ofDays(2), Duration.between(START, good.due())); // S0(Good) = 2.3065 days, rounded
    assertEquals(Duration.ofMinutes(1), Duration.between(START, quiz.review(Card.fresh(START), Rating.AGAIN, START).due()));
    assertEquals(Duration.ofSeconds(90), Duration.between(START, quiz.review(Card.fresh(START), Rating.HARD, START).due()));
    assertEquals(Duration.ofDays(8), Duration.between(START, quiz.review(Card.fresh(START), Rating.EASY, START).due()));
  }

  @Test
  void ten_easy_reviews_bring_difficulty_to_its_floor() {
    Card card = Card.fresh(START);
    for (int i = 0; i < 10; i++) card = fsrs.review(card, Rating.EASY, START.plusNanos(i * 1000L));
    assertEquals(1.0, card.difficulty());
  }
}
