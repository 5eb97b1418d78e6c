package lab.exactlyonce.rubric;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Matches a typed answer against a rubric. Two rules keep it honest, and both send the answer back unscored with a
 * note saying what to write instead:
 * <ul>
 *   <li><b>Your own words:</b> at least {@value #MIN_OWN_WORDS} words the question itself does not use, so pasting
 *   the question back (or a few words around it) scores nothing. A rubric's phrases are also checked at start-up
 *   not to be made by the question's text alone ({@link RubricCatalog}).</li>
 *   <li><b>Sentences, not a list of terms:</b> at least one word such as "the", "and", "of" or "when" for every
 *   {@value #WORDS_PER_FUNCTION_WORD} words, so a keyword salad is not matched.</li>
 * </ul>
 * What passes both is matched point by point, and the result shows points made and missed, never pass or fail.
 */
final class AnswerScorer {
  static final int MIN_OWN_WORDS = 8;
  static final int WORDS_PER_FUNCTION_WORD = 12;
  static final int MAX_ANSWER_CHARS = 4000;

  private AnswerScorer() {}

  /** @param prompt the question as the candidate read it (for a scenario question, with the scenario's prompt) */
  static AnswerScore score(Rubric rubric, String prompt, String answer) {
    Words words = Words.of(answer);
    Set<String> promptStems = new HashSet<>();
    Words.of(prompt).all().forEach(w -> promptStems.add(w.stem()));
    long own = words.all().stream().filter(w -> !promptStems.contains(w.stem())).count();
    if (own < MIN_OWN_WORDS) {
      return AnswerScore.notScored(rubric.question(), "Write at least " + MIN_OWN_WORDS + " words of your own (words the "
          + "question does not already use), in a sentence or two; then the key points are matched.");
    }
    long function = words.all().stream().filter(Words.Word::function).count();
    long needed = Math.max(1, words.all().size() / WORDS_PER_FUNCTION_WORD);
    if (function < needed) {
      return AnswerScore.notScored(rubric.question(), "That reads as a list of terms. Say how the pieces work together, "
          + "in sentences, and the key points are matched.");
    }
    List<Words.Word> meaningful = words.meaningful();
    List<AnswerScore.Hit> hit = new ArrayList<>();
    List<String> missed = new ArrayList<>();
    for (Rubric.Point point : rubric.points()) {
      Optional<Phrase.Span> found = find(point, meaningful);
      if (found.isPresent()) hit.add(new AnswerScore.Hit(point.label(), quote(words, found.get())));
      else missed.add(point.label());
    }
    int total = rubric.points().size();
    String note = "You made " + hit.size() + " of " + total + (total == 1 ? " key point." : " key points.");
    return new AnswerScore(rubric.question(), true, note, hit, missed, suggestion(hit.size(), total));
  }

  /** Whether {@code text} makes the point: any one of its phrases is there. */
  static Optional<Phrase.Span> find(Rubric.Point point, List<Words.Word> words) {
    for (Phrase phrase : point.compiled()) {
      Optional<Phrase.Span> span = phrase.in(words);
      if (span.isPresent()) return span;
    }
    return Optional.empty();
  }

  /** Every point made, fewer than half, or in between: Good, Again, Hard. */
  private static int suggestion(int hit, int total) {
    if (hit == total) return 3;
    return hit * 2 >= total ? 2 : 1;
  }

  private static String quote(Words words, Phrase.Span span) {
    String text = words.quote(span.first(), span.last()).replaceAll("\\s+", " ");
    return text.length() <= 80 ? text : text.substring(0, 79) + "…";
  }
}
