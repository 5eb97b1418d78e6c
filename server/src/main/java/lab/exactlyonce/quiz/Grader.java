package lab.exactlyonce.quiz;

import io.javalin.http.BadRequestResponse;

import java.util.HashSet;
import java.util.List;

/**
 * Grades one answer against its question. A choice, true/false or predict answer is right when it names the right
 * option; an order is right when every step is in place. A miss counts as Again for the scheduler, a right answer as
 * Good. A skipped (timed-out) answer is a miss. A self-graded answer is not graded at all: the learner's rating is
 * what the scheduler takes, and it is never right or wrong, so no score counts it (the candidate who reveals the
 * model answer and rates it Good has not been checked by anyone).
 */
final class Grader {
  /** What the learner sent: exactly one of the fields is set. */
  record Given(Integer choice, List<Integer> order, Integer rating, boolean skip) {}

  /**
   * The grading stored with the answer: the FSRS {@code rating} (1..4), and {@code correct} unless the answer is
   * {@code selfRated} (then it is not stored: nothing checked it).
   */
  record Verdict(boolean selfRated, boolean correct, int rating) {
    static Verdict graded(boolean correct) {
      return new Verdict(false, correct, (correct ? Fsrs.Rating.GOOD : Fsrs.Rating.AGAIN).value());
    }

    static Verdict selfRated(int rating) {
      return new Verdict(true, false, rating);
    }
  }

  Verdict grade(Question q, Given given) {
    check(q, given);
    if (given.skip()) return Verdict.graded(false);
    if (q.kind() == Question.Kind.SELF_GRADED) return Verdict.selfRated(given.rating());
    if (q.kind() == Question.Kind.ORDER) return Verdict.graded(given.order().equals(q.answer()));
    return Verdict.graded(given.choice().equals(q.answer().get(0)));
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
