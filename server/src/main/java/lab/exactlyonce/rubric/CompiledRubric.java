package lab.exactlyonce.rubric;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rubric with its phrases read once, when the catalog loads: what an answer and a question's own text are matched
 * against. A point is made within one sentence, its phrases in any order; a misconception is stated within one
 * clause, its phrases' words in order.
 *
 * @param points the concept of each of {@code rubric}'s points, in its order
 * @param misconceptions the concept of each of its misconceptions, in its order
 */
record CompiledRubric(Rubric rubric, List<Rubric.Concept> points, List<Rubric.Concept> misconceptions) {
  static CompiledRubric of(Rubric rubric) {
    return new CompiledRubric(rubric, rubric.points().stream().map(Rubric.Point::concept).toList(),
        rubric.misconceptions().stream().map(Rubric.Misconception::concept).toList());
  }

  /** The same key points and misconceptions for another question (one that rephrases this one). */
  CompiledRubric forQuestion(String question) {
    return new CompiledRubric(new Rubric(question, rubric.points(), rubric.misconceptions()), points, misconceptions);
  }

  /** The points {@code words} make, by index in the rubric, each with the words that make it. */
  Map<Integer, Phrase.Span> made(List<Words.Word> words) {
    var made = new LinkedHashMap<Integer, Phrase.Span>();
    for (int p = 0; p < points.size(); p++) {
      int index = p;
      points.get(p).in(words, Words.Word::sentence, false).ifPresent(span -> made.put(index, span));
    }
    return made;
  }

  /** The misconceptions {@code words} state, by index in the rubric, each with the words that state it. */
  Map<Integer, Phrase.Span> stated(List<Words.Word> words) {
    var stated = new LinkedHashMap<Integer, Phrase.Span>();
    for (int m = 0; m < misconceptions.size(); m++) {
      int index = m;
      misconceptions.get(m).in(words, Words.Word::clause, true).ifPresent(span -> stated.put(index, span));
    }
    return stated;
  }
}
