package lab.exactlyonce.rubric;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One phrase of a key point, matched against the meaningful {@link Words} of an answer. It is found when the answer
 * has its words in a row, written apart or together ("pre-commit", "pre commit" and "precommitted" all meet the
 * phrase {@code pre-commit}), or when all of its words stand within a few words of each other in any order ("the
 * epoch is bumped" meets {@code bump epoch}) and in one sentence ("... visible? I am not sure" does not meet
 * {@code not visible}).
 */
record Phrase(String text, List<String> stems) {
  /** How many more words than the phrase has a window may hold for the words to count as together. */
  private static final int SLACK = 2;

  /** Where a phrase was found: from the answer's word {@code first} to its word {@code last}. */
  record Span(Words.Word first, Words.Word last) {}

  static Phrase of(String text) {
    List<String> stems = Words.of(text).meaningful().stream().map(Words.Word::stem).toList();
    return new Phrase(text, stems);
  }

  boolean isEmpty() {
    return stems.isEmpty();
  }

  /** Where the answer's words meet this phrase, or empty when they do not. */
  Optional<Span> in(List<Words.Word> words) {
    String joined = String.join("", stems);
    for (int i = 0; i < words.size(); i++) {
      var run = new StringBuilder();
      for (int j = i; j < words.size(); j++) {
        run.append(words.get(j).stem());
        if (run.toString().equals(joined)) return Optional.of(new Span(words.get(i), words.get(j)));
        if (!joined.startsWith(run.toString())) break;
      }
    }
    if (stems.size() < 2) return Optional.empty();
    int width = stems.size() + SLACK;
    for (int i = 0; i < words.size(); i++) {
      List<String> wanted = new ArrayList<>(stems);
      int end = Math.min(words.size(), i + width);
      int last = -1;
      for (int j = i; j < end && !wanted.isEmpty() && words.get(j).sentence() == words.get(i).sentence(); j++) {
        if (wanted.remove(words.get(j).stem())) last = j;
      }
      if (wanted.isEmpty() && stems.contains(words.get(i).stem())) {
        return Optional.of(new Span(words.get(i), words.get(last)));
      }
    }
    return Optional.empty();
  }
}
