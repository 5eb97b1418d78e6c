package lab.exactlyonce.rubric;

import java.util.List;

/**
 * What a typed answer made of a question's key points. Not a grade: the candidate still rates themselves, and
 * {@link #suggested} is only offered.
 *
 * @param scored false when the answer was not matched at all ({@link #note} says why: the question's own words, or a
 *     list of terms rather than sentences); then {@link #hit}, {@link #missed} and {@link #misconceptions} are empty
 * @param note what the candidate reads above the points
 * @param hit the points made, each with the candidate's own words that made it
 * @param missed the labels of the points not made, the ones a misconception cancelled included
 * @param misconceptions the misconceptions the answer states, each with the words that state it
 * @param suggested the self-rating the score suggests (1 Again, 2 Hard, 3 Good; never 4 Easy, which only the
 *     candidate can say), or 0 when not scored
 */
record AnswerScore(String question, boolean scored, String note, List<Hit> hit, List<String> missed,
                   List<Stated> misconceptions, int suggested) {
  AnswerScore {
    hit = List.copyOf(hit);
    missed = List.copyOf(missed);
    misconceptions = List.copyOf(misconceptions);
  }

  /** A point made: its label and the words of the answer that made it. */
  record Hit(String label, String evidence) {}

  /**
   * A misconception the answer states: what the lesson says about it, the answer's words that state it, and the
   * labels of the points it cancelled.
   */
  record Stated(String says, String evidence, List<String> cancels) {
    Stated {
      cancels = List.copyOf(cancels);
    }
  }

  static AnswerScore notScored(String question, String note) {
    return new AnswerScore(question, false, note, List.of(), List.of(), List.of(), 0);
  }
}
