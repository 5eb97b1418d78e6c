package lab.exactlyonce.quiz;

import io.javalin.http.BadRequestResponse;

import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Grades one answer against its question. A self-graded answer is the learner's rating; a choice, true/false or
 * predict answer is right when it names the right option; an order is right when every step is in place. A miss
 * counts as Again for the scheduler, a right answer as Good. A skipped (timed-out) answer is a miss.
 */
final class Grader {
  /** What the learner sent: exactly one of the fields is set. */
  record Given(Integer choice, List<Integer> order, Integer rating, boolean skip) {}

  /** The grading stored with the answer: {@code correct} and the FSRS {@code rating} (1..4). */
  record Verdict(boolean correct, int rating) {
    Map<String, Object> asResult() {
      return Map.of("correct", correct, "rating", rating);
    }
  }

  Verdict grade(Question q, Given given) {
    check(q, given);
    if (given.skip()) return new Verdict(false, Fsrs.Rating.AGAIN.value());
    boolean correct;
    if (q.kind() == Question.Kind.SELF_GRADED) {
      return new Verdict(given.rating() > Fsrs.Rating.AGAIN.value(), given.rating());
    } else if (q.kind() == Question.Kind.ORDER) {
      correct = given.order().equals(q.answer());
    } else {
      correct = given.choice().equals(q.answer().get(0));
    }
    return new Verdict(correct, correct ? Fsrs.Rating.GOOD.value() : Fsrs.Rating.AGAIN.value());
  }

  /** Rejects an answer that does not fit the question, naming the field and the allowed values. */
  static void check(Question q, Given given) {
    int fields = (given.choice() != null ? 1 : 0) + (given.order() != null ? 1 : 0) + (given.rating() != null ? 1 : 0)
        + (given.skip() ? 1 : 0);
    String expected = expectedField(q);
    if (fields != 1) {
      throw new BadRequestResponse("an answer to question '" + q.id() + "' needs exactly one of '" + expected
          + "' or 'skip'");
    }
    if (given.skip()) return;
    if (q.kind() == Question.Kind.SELF_GRADED) {
      if (given.rating() == null) throw wrongField(q, expected);
      if (given.rating() < 1 || given.rating() > 4) {
        throw new BadRequestResponse("'rating' must be 1, 2, 3 or 4 (Again, Hard, Good, Easy), got " + given.rating());
      }
    } else if (q.kind() == Question.Kind.ORDER) {
      if (given.order() == null) throw wrongField(q, expected);
      int n = q.options().size();
      boolean permutation = given.order().size() == n && new HashSet<>(given.order()).size() == n
          && given.order().stream().allMatch(i -> i != null && i >= 0 && i < n);
      if (!permutation) {
        throw new BadRequestResponse("'order' must list each option index from 0 to " + (n - 1) + " exactly once, got "
            + given.order());
      }
    } else {
      if (given.choice() == null) throw wrongField(q, expected);
      int n = q.options().size();
      if (given.choice() < 0 || given.choice() >= n) {
        throw new BadRequestResponse("'choice' must be an option index from 0 to " + (n - 1) + ", got " + given.choice());
      }
    }
  }

  private static String expectedField(Question q) {
    if (q.kind() == Question.Kind.SELF_GRADED) return "rating";
    if (q.kind() == Question.Kind.ORDER) return "order";
    return "choice";
  }

  private static BadRequestResponse wrongField(Question q, String expected) {
    return new BadRequestResponse("question '" + q.id() + "' is " + q.kind().label + ": answer it with '" + expected + "'");
  }
}
