package lab.exactlyonce.rubric;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One phrase of a concept, matched against the meaningful {@link Words} of an answer. It is found when the answer
 * has its words in a row, written apart or together ("pre-commit", "pre commit" and "precommitted" all meet the
 * phrase {@code pre-commit}), or when all of its words stand within a few words of each other in any order ("the
 * epoch is bumped" meets {@code bump epoch}) and in one clause ("... visible? I am not sure" does not meet
 * {@code not visible}).
 *
 * <p>A phrase found where the answer negates it does not count: a negating word ("not", "never", "without", "rather
 * than", ...) up to {@value #NEGATION_REACH} words before it, or between its words, in the same stretch of a clause
 * (a comma ends a negation's reach). "The sink does not commit at the barrier" does not meet {@code commit barrier};
 * "never use an idempotent sink" does not meet {@code idempotent}. A phrase that carries its own negation
 * ({@code not visible}, {@code never random}) is matched as written.
 */
record Phrase(String text, List<String> stems, boolean negating) {
  /** How many more words than the phrase has a window may hold for the words to count as together. */
  private static final int SLACK = 2;
  /** How many other words may stand among a phrase's words matched in order ({@link #inOrder}). */
  private static final int ORDERED_SLACK = 3;
  /**
   * Words an ordered phrase never skips: "pre-commits at the barrier and commits once it completes" joins two claims,
   * and {@code barrier commit} is neither of them; "a new producer with the same transactional.id" is not
   * {@code new transactional id}.
   */
  private static final Set<String> NEVER_SKIPPED = Set.of("and", "or", "then", "but", "nor", "same");
  /** Words after a phrase that say it does not happen: "commits nothing". */
  private static final Set<String> NO_OBJECT = Set.of("nothing", "none", "nobody");
  /** How many words before a phrase a negating word still negates it. */
  static final int NEGATION_REACH = 4;

  /** Where a phrase was found: from the answer's word {@code first} to its word {@code last}. */
  record Span(Words.Word first, Words.Word last) {
    /** From the first word of either span to the last of either. */
    Span cover(Span other) {
      return new Span(first.start() <= other.first.start() ? first : other.first,
          last.end() >= other.last.end() ? last : other.last);
    }
  }

  static Phrase of(String text) {
    List<Words.Word> words = Words.of(text).meaningful();
    return new Phrase(text, words.stream().map(Words.Word::stem).toList(),
        words.stream().anyMatch(Words.Word::negator));
  }

  boolean isEmpty() {
    return stems.isEmpty();
  }

  /** Where the answer's words meet this phrase, not negated, or empty when they do not. */
  Optional<Span> in(List<Words.Word> words) {
    String joined = String.join("", stems);
    for (int i = 0; i < words.size(); i++) {
      var run = new StringBuilder();
      for (int j = i; j < words.size(); j++) {
        run.append(words.get(j).stem());
        if (run.toString().equals(joined)) {
          if (!negated(words, i, j)) return Optional.of(new Span(words.get(i), words.get(j)));
          break;
        }
        if (!joined.startsWith(run.toString())) break;
      }
    }
    if (stems.size() < 2) return Optional.empty();
    int width = stems.size() + SLACK;
    for (int i = 0; i < words.size(); i++) {
      if (!stems.contains(words.get(i).stem())) continue;
      List<String> wanted = new ArrayList<>(stems);
      int end = Math.min(words.size(), i + width);
      int last = -1;
      for (int j = i; j < end && !wanted.isEmpty() && words.get(j).clause() == words.get(i).clause(); j++) {
        if (wanted.remove(words.get(j).stem())) last = j;
      }
      if (wanted.isEmpty() && !negated(words, i, last)) return Optional.of(new Span(words.get(i), words.get(last)));
    }
    return Optional.empty();
  }

  /**
   * Where the answer has this phrase's words in the phrase's order, with at most {@value #ORDERED_SLACK} other words
   * among them, between two commas of one clause, and not negated. A misconception is matched so: "pre-commits at the
   * barrier and commits once the checkpoint completes" must not state {@code commit at barrier}, nor "pre-commit at
   * barrier, commit when complete".
   */
  Optional<Span> inOrder(List<Words.Word> words) {
    for (int i = 0; i < words.size(); i++) {
      if (!words.get(i).stem().equals(stems.get(0))) continue;
      int k = 1;
      int j = i;
      int skipped = 0;
      while (k < stems.size() && ++j < words.size() && words.get(j).scope() == words.get(i).scope()) {
        if (words.get(j).stem().equals(stems.get(k))) k++;
        else if (NEVER_SKIPPED.contains(words.get(j).stem()) || ++skipped > ORDERED_SLACK) break;
      }
      if (k == stems.size() && !negated(words, i, j)) return Optional.of(new Span(words.get(i), words.get(j)));
    }
    return Optional.empty();
  }

  /**
   * Whether a negating word before or inside the words {@code first..last} negates them. A phrase that carries its
   * own negation is negated only by another before it ("it does not mean records are never replayed").
   */
  private boolean negated(List<Words.Word> words, int first, int last) {
    Words.Word at = words.get(first);
    for (int k = first; k <= (negating ? first - 1 : last); k++) {
      if (words.get(k).negator()) return true;
    }
    // "A crash commits nothing": the object that follows negates the claim.
    if (!negating && last + 1 < words.size() && NO_OBJECT.contains(words.get(last + 1).stem())
        && words.get(last + 1).scope() == words.get(last).scope()) {
      return true;
    }
    // Back from the phrase: "no need to pre-commit or flush" negates "flush" too, so an "or" lends more reach, but
    // only once: a stretch of many "or"s must not make every phrase look back across the whole answer.
    int reach = NEGATION_REACH;
    boolean lent = false;
    for (int k = first - 1; k >= 0 && reach > 0 && words.get(k).scope() == at.scope(); k--) {
      Words.Word w = words.get(k);
      if (w.negator()) return true;
      boolean or = w.stem().equals("or") || w.stem().equals("nor");
      reach += or && !lent ? NEGATION_REACH : -1;
      lent |= or;
    }
    return false;
  }
}
