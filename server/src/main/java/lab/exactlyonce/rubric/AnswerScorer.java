package lab.exactlyonce.rubric;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Matches a typed answer against a rubric: its key points, and the misconceptions that cancel them.
 *
 * <p>A point is made by its concept ({@link CompiledRubric#made}): a phrase that carries its meaning, or two that
 * must stand in one sentence, never negated ({@link Phrase}). A misconception is stated by its concept within one
 * clause; it cancels the points it contradicts and caps the suggestion at Hard, and the candidate reads what it gets
 * wrong. Two rules send an answer back unscored, with a note saying what to write instead:
 * <ul>
 *   <li><b>Your own words:</b> at least {@value #MIN_OWN_WORDS} words the question itself does not use, unless
 *   fewer make a point ("o3 and o4."), so pasting the question back scores nothing. A terse answer ("replayable
 *   source, consistent snapshot, idempotent sink") is scored: the concepts it makes count, not its length. A
 *   rubric's points are also checked at start-up not to be made by the question's text alone
 *   ({@link RubricCatalog}).</li>
 *   <li><b>Sentences, not a list of terms:</b> {@value #LIST_RUN} words in a row with no word such as "the", "and",
 *   "of" or "when" and no pause (a comma, a stop, a semicolon) between them are a keyword salad, not matched; so is
 *   an answer with no such word at all that lists {@value #LIST_ITEMS} items or more of a word or two each
 *   ("barrier, flush, commit, ..."). Terse notes ("same transactional.id, new session bumps epoch; stale writes
 *   rejected") pass.</li>
 * </ul>
 */
final class AnswerScorer {
  static final int MIN_OWN_WORDS = 3;
  static final int LIST_RUN = 10;
  static final int LIST_ITEMS = 8;
  static final int MAX_ANSWER_CHARS = 4000;
  /**
   * What separates the items of a note: a comma, a stop, a semicolon or colon, a bracket, an arrow, a dash, a
   * backtick, or a command-line option ("--partition"), so a pasted command is not a list of terms.
   */
  private static final Pattern PAUSE = Pattern.compile("[,;:!?()\\[\\]/→`]|\\.\\s|\\s[-–—+]+\\s|->|(^|\\s)--?$");

  private AnswerScorer() {}

  /** @param prompt the question as the candidate read it (for a scenario question, with the scenario's prompt) */
  static AnswerScore score(CompiledRubric compiled, String prompt, String answer) {
    Rubric rubric = compiled.rubric();
    Words words = Words.of(answer);
    Set<String> promptStems = new HashSet<>();
    Words.of(prompt).all().forEach(w -> promptStems.add(w.stem()));
    long own = words.all().stream().filter(w -> !promptStems.contains(w.stem())).count();
    List<Words.Word> meaningful = words.meaningful();
    Map<Integer, Phrase.Span> made = compiled.made(meaningful);
    // "o3 and o4." answers its question in two words of its own; a pasted question makes no point (RubricCatalog).
    if (own < MIN_OWN_WORDS && made.isEmpty()) {
      return AnswerScore.notScored(rubric.question(), "Write your answer in your own words (a few words the question "
          + "does not already use); then the key points are matched.");
    }
    if (longestList(words) >= LIST_RUN || termsOneByOne(words)) {
      return AnswerScore.notScored(rubric.question(), "That reads as a list of terms. Say how the pieces work "
          + "together, in sentences, and the key points are matched.");
    }
    // What an answer says would happen ("if it commits only 8's, 7's is lost") states no misconception.
    List<Words.Word> asserted = meaningful.stream().filter(w -> !w.hypothetical()).toList();
    List<AnswerScore.Stated> stated = new ArrayList<>();
    Set<String> cancelled = new HashSet<>();
    compiled.stated(asserted).forEach((m, span) -> {
      Rubric.Misconception wrong = rubric.misconceptions().get(m);
      List<String> cancels = new ArrayList<>();
      made.keySet().forEach(p -> {
        if (wrong.voids().contains(rubric.points().get(p).id())) cancels.add(rubric.points().get(p).label());
      });
      cancelled.addAll(wrong.voids());
      stated.add(new AnswerScore.Stated(wrong.says(), quote(words, span), cancels));
    });
    List<AnswerScore.Hit> hit = new ArrayList<>();
    List<String> missed = new ArrayList<>();
    for (int p = 0; p < rubric.points().size(); p++) {
      Rubric.Point point = rubric.points().get(p);
      Phrase.Span span = made.get(p);
      if (span != null && !cancelled.contains(point.id())) {
        hit.add(new AnswerScore.Hit(point.label(), quote(words, span)));
      } else {
        missed.add(point.label());
      }
    }
    int total = rubric.points().size();
    String note = "You made " + hit.size() + " of " + total + (total == 1 ? " key point." : " key points.");
    if (!stated.isEmpty()) {
      note += stated.size() == 1 ? " The answer also states a misconception: see below."
          : " The answer also states " + stated.size() + " misconceptions: see below.";
    }
    return new AnswerScore(rubric.question(), true, note, hit, missed, stated,
        suggestion(hit.size(), total, !stated.isEmpty()));
  }

  /**
   * Whether the answer is terms listed one by one: no function word at all, {@value #LIST_ITEMS} items or more
   * between pauses, and hardly more than a word each.
   */
  private static boolean termsOneByOne(Words words) {
    if (words.all().isEmpty() || words.all().stream().anyMatch(Words.Word::function)) return false;
    int items = 1;
    for (int i = 1; i < words.all().size(); i++) {
      if (pauseBefore(words, i)) items++;
    }
    return items >= LIST_ITEMS && words.all().size() <= items * 3 / 2;
  }

  /** The most words in a row with neither a function word nor a pause among them. */
  private static int longestList(Words words) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < words.all().size(); i++) {
      run = words.all().get(i).function() ? 0 : i > 0 && pauseBefore(words, i) ? 1 : run + 1;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /** Whether a {@link #PAUSE} stands between word {@code i} and the word before it. */
  private static boolean pauseBefore(Words words, int i) {
    return PAUSE.matcher(words.text().substring(words.all().get(i - 1).end(), words.all().get(i).start())).find();
  }

  /**
   * Every point made, fewer than half, or in between: Good, Again, Hard. A misconception caps it at Hard: an answer
   * that states one was not known well, however many points it also makes.
   */
  private static int suggestion(int hit, int total, boolean misconception) {
    int byPoints = hit == total ? 3 : hit * 2 >= total ? 2 : 1;
    return misconception ? Math.min(byPoints, 2) : byPoints;
  }

  private static String quote(Words words, Phrase.Span span) {
    String text = words.quote(span.first(), span.last()).replaceAll("\\s+", " ");
    if (text.length() <= 80) return text;
    int cut = Character.isHighSurrogate(text.charAt(78)) ? 78 : 79; // never half of an emoji
    return text.substring(0, cut) + "…";
  }
}
