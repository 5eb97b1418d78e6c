package lab.exactlyonce.quiz;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The score rule: only answers the app graded count; an answer the candidate rated themselves (revealed the model
 * answer, then pressed Good) is listed apart with its rating and never counts as right, whatever was stored for it.
 */
class SelfRatedScoreTest {
  private static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
  private static final QuizSession INTERVIEW = new QuizSession("00000000-0000-0000-0000-000000000001", "learner", "l",
      QuizSession.Mode.INTERVIEW, 1, List.of("l/design", "l/choice-a", "l/choice-b", "l/design-2", "l/design-3"), 60, AT);

  private static Question selfGraded(String item) {
    return new Question("l/" + item, "l", item, Question.Kind.SELF_GRADED, "Design", "Design it", "", List.of(), List.of(),
        "the model answer", "/lessons/l#qa/" + item);
  }

  private static Question choice(String item) {
    return new Question("l/" + item, "l", item, Question.Kind.CHOICE, "Sinks", "Pick one", "", List.of("a", "b"), List.of(0),
        "why", "/lessons/l#gist/" + item);
  }

  private static Quiz.Answer rated(Question q, int rating, boolean storedCorrect) {
    return new Quiz.Answer("e-" + q.item(), INTERVIEW.id(), q.id(), storedCorrect, rating, AT, false, null, null);
  }

  private static Quiz.Answer chose(Question q, int choice) {
    boolean right = choice == q.answer().get(0);
    return new Quiz.Answer("e-" + q.item(), INTERVIEW.id(), q.id(), right, right ? 3 : 1, AT, false, choice, null);
  }

  private static Quiz.Answer timedOut(Question q) {
    return new Quiz.Answer("e-" + q.item(), INTERVIEW.id(), q.id(), false, 1, AT, true, null, null);
  }

  @Test
  void a_design_answer_rated_good_by_the_candidate_is_not_in_the_score_but_listed_apart() {
    Question design = selfGraded("design");
    Question right = choice("choice-a");
    Question wrong = choice("choice-b");
    Question forgotten = selfGraded("design-2");
    Question outOfTime = selfGraded("design-3");
    // Stored before self-ratings stopped being marked right: the stored "correct" of a rating is not believed.
    Quiz.Results results = new Quiz.Results(INTERVIEW, List.of(
        new Quiz.Line(design, rated(design, 3, true)),
        new Quiz.Line(right, chose(right, 0)),
        new Quiz.Line(wrong, chose(wrong, 1)),
        new Quiz.Line(forgotten, rated(forgotten, 1, false)),
        new Quiz.Line(outOfTime, timedOut(outOfTime))), List.of());

    assertEquals(1, results.correct(), "only the right choice counts");
    assertEquals(2, results.graded(), "the score is out of the two graded questions");
    assertEquals(List.of(design, forgotten, outOfTime), results.selfRated().stream().map(Quiz.Line::question).toList());
    assertFalse(results.lines().get(0).correct(), "rated Good is not right");
    assertEquals(List.of("Good", "Again", "no answer (time ran out)"),
        results.selfRated().stream().map(QuizPages::selfRating).toList());
    assertEquals(List.of(wrong, forgotten, outOfTime), results.misses().stream().map(Quiz.Line::question).toList(),
        "misses: the wrong choice, the design rated Again and the one that ran out of time; not the one rated Good");
  }

  @Test
  void a_quiz_of_only_self_rated_answers_has_no_score() {
    Question design = selfGraded("design");
    Quiz.Results results = new Quiz.Results(INTERVIEW, List.of(new Quiz.Line(design, rated(design, 4, true))), List.of());
    assertEquals(0, results.correct());
    assertEquals(0, results.graded());
    assertTrue(results.misses().isEmpty());
  }

  @Test
  void the_grader_stores_a_rating_as_self_rated_and_never_as_right() {
    Grader grader = new Grader();
    for (int rating = 1; rating <= 4; rating++) {
      Grader.Verdict verdict = grader.grade(selfGraded("design"), new Grader.Given(null, null, rating, false));
      assertEquals(new Grader.Verdict(true, false, rating), verdict);
    }
    assertEquals(new Grader.Verdict(false, true, 3), grader.grade(choice("c"), new Grader.Given(0, null, null, false)));
    assertEquals(new Grader.Verdict(false, false, 1), grader.grade(choice("c"), new Grader.Given(1, null, null, false)));
  }
}
