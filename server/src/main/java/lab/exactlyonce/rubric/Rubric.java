package lab.exactlyonce.rubric;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The key points of one question's model answer, and the classic misconceptions of that question, as
 * {@code lessons/<id>/rubrics.yaml} lists them (see {@code lessons/SCHEMA.md}).
 *
 * @param question the id of a ladder, interview or scenario question of the lesson
 * @param misconceptions may be empty
 */
record Rubric(String question, List<Point> points, List<Misconception> misconceptions) {
  Rubric {
    if (question == null || question.isBlank()) throw new IllegalArgumentException("missing required field 'question'");
    if (points == null || points.isEmpty()) throw new IllegalArgumentException("'points' needs at least one key point");
    points = List.copyOf(points);
    misconceptions = misconceptions == null ? List.of() : List.copyOf(misconceptions);
  }

  /**
   * One key point: a short {@code label} the candidate reads, and the concept that makes it, in one sentence.
   *
   * @param id names the point for a misconception's {@code voids}
   * @param phrases any one of them makes the point alone; may be empty when {@code together} is given
   * @param together groups of phrases: one phrase of every group in the same sentence makes the point; may be empty
   *     when {@code phrases} is given, else at least two groups
   */
  record Point(String id, String label, List<String> phrases, List<List<String>> together) {
    Point {
      if (id == null || id.isBlank()) throw new IllegalArgumentException("missing required field 'id'");
      if (label == null || label.isBlank()) throw new IllegalArgumentException("missing required field 'label'");
      label = label.strip();
      String owner = "the point '" + id + "'";
      phrases = checked(phrases, "phrases", owner);
      together = groups(together, owner);
      if (phrases.isEmpty() && together.isEmpty()) {
        throw new IllegalArgumentException(owner + " needs 'phrases' or 'together' to say what makes it");
      }
    }

    Concept concept() {
      return Concept.of(phrases, together);
    }
  }

  /**
   * A classic wrong belief about the question. An answer that states it in one clause, not negated, loses the points
   * named in {@code voids}, and its suggested rating is capped at Hard.
   *
   * @param says what the candidate is told: the misconception, and what is true instead, in the lesson's words
   * @param phrases any one of them states it; may be empty when {@code together} is given
   * @param together groups of phrases: one phrase of every group in the same clause states it
   * @param voids ids of the points of the same rubric that it contradicts; may be empty
   */
  record Misconception(String id, String says, List<String> phrases, List<List<String>> together,
                       List<String> voids) {
    Misconception {
      if (id == null || id.isBlank()) throw new IllegalArgumentException("missing required field 'id'");
      if (says == null || says.isBlank()) throw new IllegalArgumentException("missing required field 'says'");
      says = says.strip();
      String owner = "the misconception '" + id + "'";
      phrases = checked(phrases, "phrases", owner);
      together = groups(together, owner);
      if (phrases.isEmpty() && together.isEmpty()) {
        throw new IllegalArgumentException(owner + " needs 'phrases' or 'together' to say what states it");
      }
      voids = voids == null ? List.of() : List.copyOf(voids);
    }

    Concept concept() {
      return Concept.of(phrases, together);
    }
  }

  /** Any one of {@code phrases} alone, or one phrase of every group of {@code together} in one stretch of text. */
  record Concept(List<Phrase> phrases, List<List<Phrase>> together) {
    static Concept of(List<String> phrases, List<List<String>> together) {
      return new Concept(phrases.stream().map(Phrase::of).toList(),
          together.stream().map(g -> g.stream().map(Phrase::of).toList()).toList());
    }

    /**
     * Where {@code words} make this concept: one of its phrases, or a phrase of each of its groups, within one
     * stretch of text ({@code unit} says which: a sentence or a clause); {@code ordered} phrases must have their
     * words in order ({@link Phrase#inOrder}).
     */
    Optional<Phrase.Span> in(List<Words.Word> words, Function<Words.Word, Integer> unit, boolean ordered) {
      int from = 0;
      while (from < words.size()) {
        int id = unit.apply(words.get(from));
        int to = from;
        while (to < words.size() && unit.apply(words.get(to)) == id) to++;
        List<Words.Word> part = words.subList(from, to);
        Optional<Phrase.Span> made = first(phrases, part, ordered).or(() -> all(part, ordered));
        if (made.isPresent()) return made;
        from = to;
      }
      return Optional.empty();
    }

    private Optional<Phrase.Span> all(List<Words.Word> words, boolean ordered) {
      if (together.isEmpty()) return Optional.empty();
      Phrase.Span covered = null;
      for (List<Phrase> group : together) {
        Optional<Phrase.Span> span = first(group, words, ordered);
        if (span.isEmpty()) return Optional.empty();
        covered = covered == null ? span.get() : covered.cover(span.get());
      }
      return Optional.of(covered);
    }

    private static Optional<Phrase.Span> first(List<Phrase> phrases, List<Words.Word> words, boolean ordered) {
      for (Phrase phrase : phrases) {
        Optional<Phrase.Span> span = ordered ? phrase.inOrder(words) : phrase.in(words);
        if (span.isPresent()) return span;
      }
      return Optional.empty();
    }
  }

  private static List<String> checked(List<String> phrases, String field, String owner) {
    if (phrases == null) return List.of();
    for (String phrase : phrases) {
      if (phrase == null || Phrase.of(phrase).isEmpty()) {
        throw new IllegalArgumentException(owner + " has a phrase with no words in '" + field + "': '" + phrase + "'");
      }
    }
    return List.copyOf(phrases);
  }

  private static List<List<String>> groups(List<List<String>> together, String owner) {
    if (together == null || together.isEmpty()) return List.of();
    if (together.size() < 2) {
      throw new IllegalArgumentException(owner + " has one group in 'together'; it needs two or more that must stand "
          + "together (a single group belongs in 'phrases')");
    }
    for (List<String> group : together) {
      if (group == null || group.isEmpty()) {
        throw new IllegalArgumentException(owner + " has an empty group in 'together'");
      }
      checked(group, "together", owner);
    }
    return together.stream().map(List::copyOf).toList();
  }
}
