package lab.exactlyonce.rubric;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A text as the rubric matcher reads it: its words, lower-cased, each reduced to a stem so that simple inflections
 * meet ("commits", "committed" and "committing" are all {@code commit}; "fences", "fenced", "fencing" are
 * {@code fenc}). Anything that is not a letter or a digit separates words, so punctuation, {@code _}, {@code .} and
 * {@code -} do not matter: {@code transactional.id}, {@code transactional_id} and "transactional id" are the same
 * two words. Words written together ({@code precommit}) meet their parts in {@link Phrase}.
 *
 * @param text the text after Unicode normalization, which {@link Word#start} and {@link Word#end} index
 */
record Words(String text, List<Word> all) {
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern POSSESSIVE = Pattern.compile("['’]s\\b");

  /**
   * Words sentences are made of and lists of terms lack; {@link AnswerScorer} counts them to tell a sentence from a
   * keyword salad.
   */
  static final Set<String> FUNCTION = Set.of("a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by",
      "for", "with", "from", "into", "per", "is", "are", "was", "were", "be", "been", "it", "its", "their", "they",
      "them", "that", "this", "these", "those", "which", "who", "so", "as", "if", "then", "when", "once", "until",
      "before", "after", "not", "no", "only", "each", "every", "can", "will", "would", "does", "do", "must", "has",
      "have", "than", "because", "there", "what", "how", "while", "also");

  /** Words that carry no key point: dropped before phrases are matched, so "bumps the epoch" meets "epoch bump". */
  private static final Set<String> FILLER = Set.of("a", "an", "the", "its", "their", "is", "are", "was", "were", "be",
      "been");

  /** Ends a sentence: a stop, question or exclamation mark, colon or semicolon before a space or the end. */
  private static final Pattern SENTENCE_END = Pattern.compile("[.!?;:](?=\\s|$)");

  /**
   * One word: its stem, where it stands in {@link #text}, which sentence it is in (counted from 0), and whether it is
   * one of {@link #FUNCTION} or filler.
   */
  record Word(String stem, int start, int end, int sentence, boolean function, boolean filler) {}

  static Words of(String raw) {
    String text = Normalizer.normalize(raw, Normalizer.Form.NFKC);
    String lower = POSSESSIVE.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("  ");
    // Lower-casing can change a text's length (a dotted capital I); then quotes are taken from the lower-cased text.
    if (lower.length() != text.length()) text = lower;
    List<Word> words = new ArrayList<>();
    Matcher m = WORD.matcher(lower);
    Matcher ends = SENTENCE_END.matcher(lower);
    int sentence = 0;
    int endAt = ends.find() ? ends.start() : Integer.MAX_VALUE;
    while (m.find()) {
      while (endAt < m.start()) {
        sentence++;
        endAt = ends.find() ? ends.start() : Integer.MAX_VALUE;
      }
      String word = m.group();
      words.add(new Word(stem(word), m.start(), m.end(), sentence, FUNCTION.contains(word), FILLER.contains(word)));
    }
    return new Words(text, List.copyOf(words));
  }

  /** The words a phrase is matched against: all but {@link #FILLER}. */
  List<Word> meaningful() {
    return all.stream().filter(w -> !w.filler()).toList();
  }

  /** The text from the start of {@code first} to the end of {@code last}, as the candidate wrote it. */
  String quote(Word first, Word last) {
    return text.substring(first.start(), last.end());
  }

  /** A light suffix stripper: enough for plurals and the -s, -ed, -ing forms of verbs; irregular forms need synonyms. */
  static String stem(String word) {
    String w = word;
    if (w.length() > 4 && w.endsWith("ies")) w = w.substring(0, w.length() - 3) + "y";
    else if (w.endsWith("sses")) w = w.substring(0, w.length() - 2);
    else if (w.length() >= 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
      w = w.substring(0, w.length() - 1);
    }
    if (w.length() > 4 && w.endsWith("ied")) w = w.substring(0, w.length() - 3) + "y";
    else if (w.length() > 5 && w.endsWith("ing")) w = undouble(w.substring(0, w.length() - 3));
    else if (w.length() > 4 && w.endsWith("ed")) w = undouble(w.substring(0, w.length() - 2));
    if (w.length() > 4 && w.endsWith("e")) w = w.substring(0, w.length() - 1);
    return w;
  }

  /** "committ" to "commit", "stopp" to "stop"; a doubled l, s or z stays ("fall", "pass"). */
  private static String undouble(String w) {
    int n = w.length();
    if (n < 3) return w;
    char last = w.charAt(n - 1);
    if (last == w.charAt(n - 2) && "aeiouylsz".indexOf(last) < 0) return w.substring(0, n - 1);
    return w;
  }
}
