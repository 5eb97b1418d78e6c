package lab.exactlyonce.quiz;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The rules a quiz bank keeps so that knowing the lesson, not spotting a pattern, answers it. Each problem is one
 * line naming the question and the rule it breaks.
 */
final class BankLinter {
  private static final Set<String> STOP = Set.of("the", "and", "for", "with", "that", "this", "from", "into", "its", "it's",
      "are", "was", "were", "has", "have", "had", "not", "but", "all", "any", "one", "two", "each", "every", "than", "then",
      "what", "which", "when", "does", "did", "can", "may", "only", "also", "they", "them", "their", "there", "here", "you",
      "your", "job", "after", "before", "same", "more", "less", "still", "been", "being", "just", "out", "who", "how", "why");
  private static final Set<String> TELLING_TOPICS = Set.of("myth", "misconception", "key idea", "trap", "true", "false",
      "right", "wrong", "correct");
  private static final Pattern ADVERB_WHICH = Pattern.compile("(?i)\\bwhich (where|when|why|how|what)\\b");
  private static final Pattern DOUBLED = Pattern.compile("(?i)\\b(\\w+) \\1\\b");
  private static final int COPIED_RUN = 7;
  private static final double NEAR_DUPLICATE = 0.6;

  /** What the linter knows beside the questions: each question's idea and lesson item kind, and the lesson's text. */
  record Context(Function<Question, String> idea, Function<Question, String> itemKind, String lessonText) {}

  static List<String> problems(List<Question> questions, Context context) {
    List<String> out = new ArrayList<>();
    String lessonWords = " " + String.join(" ", words(context.lessonText())) + " ";
    for (Question q : questions) {
      if (q.selfGraded() || q.kind() == Question.Kind.ORDER) continue;
      String where = q.id() + ": ";
      if (q.kind() == Question.Kind.TRUE_FALSE) {
        if (!q.options().equals(List.of("True", "False"))) out.add(where + "a true/false question offers True and False");
        List<String> statement = words(q.prompt());
        for (int i = 0; i + COPIED_RUN <= statement.size(); i++) {
          String run = " " + String.join(" ", statement.subList(i, i + COPIED_RUN)) + " ";
          if (lessonWords.contains(run)) {
            out.add(where + "the statement copies the lesson (\"" + run.strip() + "\"): reword it");
            break;
          }
        }
      } else {
        if (q.options().size() < 3) out.add(where + "has " + q.options().size() + " options; a guess must not score a half");
        Set<String> distinctive = stems(q.expected());
        for (int i = 0; i < q.options().size(); i++) if (i != q.answer().get(0)) distinctive.removeAll(stems(q.options().get(i)));
        Set<String> shown = stems(q.prompt() + " " + q.detail() + " " + q.topic());
        shown.retainAll(distinctive);
        if (!shown.isEmpty()) out.add(where + "the prompt, detail or topic shares the answer's own words " + shown);
      }
      String topic = q.topic().toLowerCase(Locale.ROOT);
      for (String telling : TELLING_TOPICS) {
        if (topic.contains(telling)) out.add(where + "the topic '" + q.topic() + "' says what kind of claim it is");
      }
      if (ADVERB_WHICH.matcher(q.prompt()).find() || DOUBLED.matcher(q.prompt()).find()) {
        out.add(where + "the prompt is not correct English: '" + q.prompt() + "'");
      }
      for (String feedback : List.of(q.expected(), q.explanation())) {
        if (feedback.chars().filter(c -> c == '`').count() % 2 != 0 || feedback.contains("](") || feedback.contains("**")) {
          out.add(where + "the feedback holds Markdown the quiz shows as plain text: '" + feedback + "'");
        }
      }
    }
    out.addAll(balance(questions, Question::topic, "topic", context));
    out.addAll(balance(questions, context.itemKind(), "kind of lesson item", context));
    out.addAll(nearDuplicates(questions, context));
    return out;
  }

  /** Within each group, true/false answers are true as often as false (one apart at most). */
  private static List<String> balance(List<Question> questions, Function<Question, String> group, String groupName,
                                      Context context) {
    Map<String, int[]> counts = new HashMap<>();
    for (Question q : questions) {
      if (q.kind() != Question.Kind.TRUE_FALSE) continue;
      counts.computeIfAbsent(group.apply(q), g -> new int[2])[q.answer().get(0)]++;
    }
    List<String> out = new ArrayList<>();
    counts.forEach((g, c) -> {
      if (Math.abs(c[0] - c[1]) > 1) {
        out.add("the " + groupName + " '" + g + "' has " + c[0] + " true and " + c[1] + " false statements: the label tells");
      }
    });
    return out;
  }

  /** Two questions that ask nearly the same thing must be one idea, so that no quiz holds both. */
  private static List<String> nearDuplicates(List<Question> questions, Context context) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < questions.size(); i++) {
      for (int j = i + 1; j < questions.size(); j++) {
        Question a = questions.get(i);
        Question b = questions.get(j);
        // Predict variants and ordering paths share a template by design: each asks about its own run or path.
        if (templated(a) || templated(b)) continue;
        if (context.idea().apply(a).equals(context.idea().apply(b))) continue;
        Set<String> x = stems(a.prompt());
        Set<String> y = stems(b.prompt());
        Set<String> union = new HashSet<>(x);
        union.addAll(y);
        x.retainAll(y);
        if (!union.isEmpty() && (double) x.size() / union.size() >= NEAR_DUPLICATE) {
          out.add(a.id() + " and " + b.id() + " ask nearly the same thing but are different ideas, so one quiz may hold both");
        }
      }
    }
    return out;
  }

  private static boolean templated(Question q) {
    return q.kind() == Question.Kind.PREDICT || q.kind() == Question.Kind.ORDER;
  }

  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9_]+")) if (!w.isEmpty()) out.add(w);
    return out;
  }

  /** Content words, crudely stemmed ("keyed" and "keys" are "key"), without the words every sentence has. */
  static Set<String> stems(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : words(text)) {
      if (w.length() < 3 || STOP.contains(w)) continue;
      out.add(stem(w));
    }
    return out;
  }

  private static String stem(String w) {
    for (String suffix : List.of("ing", "ed", "es", "s")) {
      if (w.length() > suffix.length() + 3 && w.endsWith(suffix)) return w.substring(0, w.length() - suffix.length());
    }
    return w;
  }

  private BankLinter() {}
}
