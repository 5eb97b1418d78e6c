package lab.exactlyonce.rubric;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A text as the rubric matcher reads it: its words, lower-cased, each reduced to a stem so that simple inflections
 * meet ("commits", "committed" and "committing" are all {@code commit}; "fences", "fenced", "fencing" are
 * {@code fenc}). Anything that is not a letter or a digit separates words, so punctuation, {@code _}, {@code .} and
 * {@code -} do not matter: {@code transactional.id}, {@code transactional_id} and "transactional id" are the same
 * two words. Words written together ({@code precommit}) meet their parts in {@link Phrase}; the prefixes "pre" and
 * "re" always join the word they stand before, so "pre-commits" is one word and never makes "commits".
 *
 * <p>Each word knows its sentence and its clause. A clause ends where a sentence does, at a semicolon or colon, and
 * before a word that turns the sentence ("but", "while", "whereas", "instead", "then", "otherwise", ...), so "it
 * pre-commits at the barrier, then commits once the checkpoint completes" is two clauses. Words that negate what
 * follows ("not", "never", "without", "rather than", ...) are marked, with "n't" read as "not".
 *
 * @param text the text after Unicode normalization, which {@link Word#start} and {@link Word#end} index
 */
record Words(String text, List<Word> all) {
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern POSSESSIVE = Pattern.compile("['’]s\\b");
  /** Characters that show nothing (a soft hyphen, zero-width spaces and joiners, a byte-order mark): dropped. */
  private static final Pattern INVISIBLE = Pattern.compile("[\\u00AD\\u200B-\\u200F\\u2060\\uFEFF]");
  /** Abbreviations whose stops end no sentence. */
  private static final Pattern NOT_A_STOP = Pattern.compile("\\b(e\\.g|i\\.e|etc|vs|cf)\\.");
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

  /** Words that end a negation once it has negated a word: a new verb or a new clause begins. */
  private static final Set<String> NEGATION_ENDS = Set.of("is", "are", "was", "were", "be", "been", "and", "so",
      "because", "since", "which", "who", "that", "where", "when", "as");

  /**
   * Words that negate what follows them in their clause. "not only", "no matter" and "no doubt" do not, see
   * {@link #of}.
   */
  static final Set<String> NEGATORS = Set.of("not", "never", "no", "without", "nor", "neither", "none", "nothing",
      "nobody", "unlike", "instead", "rather", "cannot", "avoid");
  private static final Set<String> NOT_A_NEGATION_AFTER_NOT = Set.of("only", "just", "merely", "simply");
  private static final Set<String> PREFIXES = Set.of("pre", "re");
  /** Shorthand candidates type for the lesson's words, read as those words. */
  private static final Map<String, String> ABBREVIATIONS = Map.of("ckpt", "checkpoint", "ckpts", "checkpoints",
      "chkpt", "checkpoint", "cp", "checkpoint", "txn", "transaction", "txns", "transactions", "tx", "transaction",
      "msg", "message", "msgs", "messages", "db", "database");
  /** The verbs of "n't" that are not the verb with its "n" dropped ("doesn" is "does", but "won" is "will"). */
  private static final Map<String, String> UNCONTRACTED = Map.of("won", "will", "can", "can", "don", "do",
      "shan", "shall");
  /** What may stand between "pre" and its word: a hyphen or spaces ("re" joins its word only with a hyphen). */
  private static final Pattern PREFIX_GAP = Pattern.compile("\\s*-?\\s*");
  /** "n't" typed without its apostrophe: the verb it belongs to. */
  private static final Map<String, String> CONTRACTED_NOT = Map.ofEntries(Map.entry("doesnt", "does"),
      Map.entry("dont", "do"), Map.entry("didnt", "did"), Map.entry("isnt", "is"), Map.entry("arent", "are"),
      Map.entry("wasnt", "was"), Map.entry("werent", "were"), Map.entry("wont", "will"), Map.entry("cant", "can"),
      Map.entry("couldnt", "could"), Map.entry("shouldnt", "should"), Map.entry("wouldnt", "would"),
      Map.entry("hasnt", "has"), Map.entry("havent", "have"), Map.entry("hadnt", "had"), Map.entry("neednt", "need"),
      Map.entry("mustnt", "must"));

  /** Words that begin a new clause: what follows them is said apart from what came before. */
  private static final Set<String> CLAUSE_OPENERS = Set.of("but", "while", "whereas", "although", "though", "however",
      "instead", "otherwise", "then", "unless", "except", "yet", "if", "else");
  /** Words that open a clause about what would happen, not what does: "if it commits only 8's, 7's is lost". */
  private static final Set<String> HYPOTHETICAL = Set.of("if", "unless", "otherwise", "else", "suppose");
  /**
   * The word before an "'d" that makes its clause a supposition ("on replay that'd be a fresh UUID"); "I'd say" and
   * "would" are the candidate's own voice and assert.
   */
  private static final Set<String> SUPPOSING_D = Set.of("that", "it", "which", "there", "this");

  /** Ends a sentence: a stop, question or exclamation mark before a space or the end. */
  private static final Pattern SENTENCE_END = Pattern.compile("[.!?](?=\\s|$)");
  /**
   * Ends a clause inside a sentence: a semicolon or a colon before a space, or a dash between spaces. A bracket does
   * not: what it holds explains what stands before it ("never random (a fresh UUID per attempt)").
   */
  private static final Pattern CLAUSE_END = Pattern.compile("[;:](?=\\s)|\\s[-–—]+\\s");

  /**
   * One word: its stem, where it stands in {@link #text}, which sentence and clause it is in (each counted from 0),
   * its scope (the stretch between commas inside its clause, which is as far as a negation reaches), whether its
   * clause says what would happen rather than what does ({@link #HYPOTHETICAL}), whether it is one of
   * {@link #FUNCTION} or filler, and whether it negates what follows.
   */
  record Word(String stem, int start, int end, int sentence, int clause, int scope, boolean hypothetical,
              boolean function, boolean filler, boolean negator) {}

  static Words of(String raw) {
    String text = INVISIBLE.matcher(Normalizer.normalize(raw, Normalizer.Form.NFKC)).replaceAll("");
    String lower = POSSESSIVE.matcher(text.toLowerCase(Locale.ROOT)).replaceAll("  ");
    // Lower-casing can change a text's length (a dotted capital I); then quotes are taken from the lower-cased text.
    if (lower.length() != text.length()) text = lower;
    lower = NOT_A_STOP.matcher(lower).replaceAll(m -> m.group().replace('.', ' '));
    List<Word> words = new ArrayList<>();
    Matcher m = WORD.matcher(lower);
    int sentence = 0;
    int clause = 0;
    int scope = 0;
    boolean hypothetical = false;
    // A negation ends at the next "is", "and", "so", ... after the word it negates: in "transactions that were not
    // committed are aborted" it covers "committed", not "aborted".
    boolean negationOpen = false;
    boolean negatedSomething = false;
    int from = 0;
    String before = "";
    String beforeGap = "";
    while (m.find()) {
      String token = m.group();
      String gap = lower.substring(from, m.start());
      // The gap with the word's first letter: a stop followed by a letter ("transactional.id") ends no sentence.
      String gapAndNext = lower.substring(from, m.start() + 1);
      from = m.end();
      if (joinsNext(before, beforeGap, gap)) {
        // "pre-commits" and "re read" are one word: "commits" alone would be a different claim.
        Word prefix = words.remove(words.size() - 1);
        before = before + token;
        words.add(word(before, prefix.start(), m.end(), sentence, clause, scope, hypothetical));
        beforeGap = gap;
        continue;
      }
      String spelledOut = CONTRACTED_NOT.get(token);
      if (spelledOut != null) {
        // "doesnt" typed without its apostrophe is "does not" as well.
        words.add(word(spelledOut, m.start(), m.end() - 2, sentence, clause, scope, hypothetical));
        token = "not";
      } else if (token.equals("t") && (gap.equals("'") || gap.equals("’")) && before.endsWith("n")) {
        // "doesn't" is "does not": the word before loses its "n", so both spellings meet one phrase.
        token = "not";
        Word verb = words.remove(words.size() - 1);
        String full = UNCONTRACTED.getOrDefault(before, before.substring(0, before.length() - 1));
        words.add(word(full, verb.start(), verb.end(), sentence, clause, scope, hypothetical));
      }
      if (words.isEmpty()) {
        hypothetical = HYPOTHETICAL.contains(token);
      } else if (SENTENCE_END.matcher(gapAndNext).find()) {
        sentence++;
        clause++;
        scope++;
        hypothetical = HYPOTHETICAL.contains(token);
      } else if (CLAUSE_END.matcher(gapAndNext).find() || CLAUSE_OPENERS.contains(token)
          || (token.equals("and") && gap.contains(","))) {
        clause++;
        scope++;
        hypothetical = HYPOTHETICAL.contains(token);
      } else if (gap.contains(",") || (negationOpen && negatedSomething && NEGATION_ENDS.contains(token))) {
        scope++;
        // "If you ask me, the sink commits at the barrier": what follows the condition's comma is asserted.
        if (gap.contains(",")) hypothetical = false;
      }
      if (NEGATORS.contains(token)) {
        negationOpen = true;
        negatedSomething = false;
      } else if (negationOpen && !FUNCTION.contains(token) && !FILLER.contains(token)) {
        negatedSomething = true;
      }
      if (NEGATION_ENDS.contains(token) && negatedSomething) negationOpen = false;
      words.add(word(token, spelledOut != null ? m.end() - 2 : m.start(), m.end(), sentence, clause, scope,
          hypothetical));
      before = token;
      beforeGap = gap;
    }
    Set<Integer> conditional = new HashSet<>();
    for (int i = 1; i < words.size(); i++) {
      if (words.get(i).stem().equals("d") && SUPPOSING_D.contains(words.get(i - 1).stem())) {
        conditional.add(words.get(i).clause());
      }
    }
    List<Word> marked = new ArrayList<>(words.size());
    for (int i = 0; i < words.size(); i++) {
      Word w = words.get(i);
      String next = i + 1 < words.size() ? words.get(i + 1).stem() : "";
      boolean negator = w.negator() && !(w.stem().equals("not") && NOT_A_NEGATION_AFTER_NOT.contains(next))
          && !(w.stem().equals("no") && (next.equals("matter") || next.equals("doubt")));
      boolean supposed = w.hypothetical() || conditional.contains(w.clause());
      marked.add(negator == w.negator() && supposed == w.hypothetical() ? w : new Word(w.stem(), w.start(),
          w.end(), w.sentence(), w.clause(), w.scope(), supposed, w.function(), w.filler(), negator));
    }
    return new Words(text, List.copyOf(marked));
  }

  /**
   * Whether the word {@code before} is a prefix of the next one: "pre" written apart or hyphenated, "re" hyphenated,
   * and never the "re" of "we're", which follows an apostrophe.
   */
  private static boolean joinsNext(String before, String beforeGap, String gap) {
    if (!PREFIXES.contains(before) || !PREFIX_GAP.matcher(gap).matches()) return false;
    if (beforeGap.endsWith("'") || beforeGap.endsWith("’")) return false;
    return before.equals("pre") || gap.contains("-");
  }

  private static Word word(String written, int start, int end, int sentence, int clause, int scope,
                           boolean hypothetical) {
    String word = ABBREVIATIONS.getOrDefault(written, written);
    return new Word(stem(word), start, end, sentence, clause, scope, hypothetical, FUNCTION.contains(word),
        FILLER.contains(word), NEGATORS.contains(word));
  }

  /** The words a phrase is matched against: all but {@link #FILLER}. */
  List<Word> meaningful() {
    return all.stream().filter(w -> !w.filler()).toList();
  }

  /** The text from the start of {@code first} to the end of {@code last}, as the candidate wrote it. */
  String quote(Word first, Word last) {
    return text.substring(first.start(), Math.min(text.length(), last.end()));
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
