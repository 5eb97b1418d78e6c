package lab.exactlyonce.quiz;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Which questions a session gets: due today first (earliest first), then new ones in seeded order, then the rest. */
class QuizScheduleTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private final Quiz quiz = new Quiz(null, null, null, Clock.fixed(NOW, ZoneOffset.UTC));
  private final Fsrs fsrs = new Fsrs();

  private static Question q(String item) {
    return new Question("l/" + item, "l", item, Question.Kind.SELF_GRADED, "t", "p", "", List.of(), List.of(), "a", "/lessons/l#qa/" + item);
  }

  private Fsrs.Card reviewed(Fsrs.Rating rating, Instant at) {
    return fsrs.replay(at, List.of(new Fsrs.Review(rating, at)));
  }

  @Test
  void due_questions_come_first_then_new_ones_then_those_due_later() {
    List<Question> pool = new ArrayList<>();
    for (String id : List.of("a", "b", "c", "d", "e", "f")) pool.add(q(id));
    Map<String, Fsrs.Card> cards = Map.of(
        "l/a", reviewed(Fsrs.Rating.EASY, NOW.minus(Duration.ofDays(1))),   // due in 8 days: later
        "l/b", reviewed(Fsrs.Rating.AGAIN, NOW.minus(Duration.ofHours(2))), // due 1 min after its review: overdue
        "l/c", reviewed(Fsrs.Rating.GOOD, NOW.minus(Duration.ofMinutes(5))) // due 10 min after its review: today
    );
    List<String> chosen = quiz.choose(pool, cards, 6, 42);
    assertEquals(List.of("l/b", "l/c"), chosen.subList(0, 2));
    assertEquals(List.of("l/d", "l/e", "l/f"), chosen.subList(2, 5).stream().sorted().toList());
    assertEquals("l/a", chosen.get(5));
    assertEquals(chosen, quiz.choose(pool, cards, 6, 42), "the same seed gives the same order");
    assertEquals(List.of("l/b", "l/c", chosen.get(2)), quiz.choose(pool, cards, 3, 42), "length cuts from the end");
  }

  @Test
  void new_questions_are_shuffled_by_the_seed() {
    List<Question> pool = new ArrayList<>();
    for (int i = 0; i < 12; i++) pool.add(q("n" + i));
    assertNotEquals(quiz.choose(pool, Map.of(), 12, 1), quiz.choose(pool, Map.of(), 12, 2));
  }

  @Test
  void a_card_due_tomorrow_is_not_due_today() {
    List<Question> pool = List.of(q("a"), q("b"), q("new"));
    // Easy on a new card: 8 days. Good twice (learning then review): 2 days. Neither is due today.
    Map<String, Fsrs.Card> cards = Map.of("l/a", reviewed(Fsrs.Rating.EASY, NOW),
        "l/b", fsrs.replay(NOW, List.of(new Fsrs.Review(Fsrs.Rating.GOOD, NOW.minusSeconds(700)), new Fsrs.Review(Fsrs.Rating.GOOD, NOW))));
    assertEquals(List.of("l/new", "l/b", "l/a"), quiz.choose(pool, cards, 3, 0), "the new one first, then the two later, sooner first");
  }
}
