package lab.exactlyonce.rubric;

import java.util.List;

/**
 * The key points of one question's model answer, as {@code lessons/<id>/rubrics.yaml} lists them (see
 * {@code lessons/SCHEMA.md}): each with the label a candidate reads and the phrases that count as making the point.
 *
 * @param question the id of a ladder, interview or scenario question of the lesson
 */
record Rubric(String question, List<Point> points) {
  Rubric {
    if (question == null || question.isBlank()) throw new IllegalArgumentException("missing required field 'question'");
    if (points == null || points.isEmpty()) throw new IllegalArgumentException("'points' needs at least one key point");
    points = List.copyOf(points);
  }

  /** One key point: a short {@code label} and the phrases (synonyms included) any one of which makes it. */
  record Point(String label, List<String> phrases) {
    Point {
      if (label == null || label.isBlank()) throw new IllegalArgumentException("missing required field 'label'");
      label = label.strip();
      if (phrases == null || phrases.isEmpty()) {
        throw new IllegalArgumentException("'phrases' needs at least one phrase that makes the point '" + label + "'");
      }
      for (String phrase : phrases) {
        if (phrase == null || Phrase.of(phrase).isEmpty()) {
          throw new IllegalArgumentException("the point '" + label + "' has a phrase with no words: '" + phrase + "'");
        }
      }
      phrases = List.copyOf(phrases);
    }

    List<Phrase> compiled() {
      return phrases.stream().map(Phrase::of).toList();
    }
  }
}
