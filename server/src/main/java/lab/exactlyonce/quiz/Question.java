package lab.exactlyonce.quiz;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One quiz question, generated from lesson data. {@code id} is stable: {@code <lesson>/<item>} or
 * {@code <lesson>/<item>/<variant>}; answers and schedules point at it.
 *
 * @param item the lesson item the question is about (recorded as the answer event's item)
 * @param options what the learner chooses from; empty for self-graded questions
 * @param answer the indexes of the right option (one for choice kinds; the full order for {@link Kind#ORDER});
 *               empty for self-graded questions
 * @param explanation the model answer or correction, shown after answering
 * @param link the part of the lesson that teaches it: {@code /lessons/<id>#<tab>/<item>}
 */
record Question(String id, String lesson, String item, Kind kind, String topic, String prompt, String detail,
                List<String> options, List<Integer> answer, String explanation, String link) {

  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}(/[A-Za-z0-9][A-Za-z0-9_.-]{0,127}){1,2}");

  enum Kind {
    /** Reveal the model answer, then rate yourself Again/Hard/Good/Easy. */
    SELF_GRADED("self-graded"),
    /** A statement: true or false. */
    TRUE_FALSE("true-false"),
    /** Pick one option. */
    CHOICE("choice"),
    /** Put the options in order. */
    ORDER("order"),
    /** Pick the output a program printed. */
    PREDICT("predict");

    final String label;

    Kind(String label) { this.label = label; }
  }

  Question {
    Objects.requireNonNull(kind, "kind");
    if (!ID.matcher(id).matches()) throw new IllegalArgumentException("malformed question id '" + id + "'");
    options = List.copyOf(options);
    answer = List.copyOf(answer);
    detail = detail == null ? "" : detail;
    if (kind == Kind.SELF_GRADED) {
      if (!options.isEmpty() || !answer.isEmpty()) throw new IllegalArgumentException(id + ": self-graded takes no options");
    } else if (kind == Kind.ORDER) {
      if (answer.size() != options.size()) throw new IllegalArgumentException(id + ": the order must name every option");
    } else if (answer.size() != 1 || answer.get(0) < 0 || answer.get(0) >= options.size()) {
      throw new IllegalArgumentException(id + ": needs exactly one right option");
    }
  }

  boolean selfGraded() { return kind == Kind.SELF_GRADED; }

  /**
   * What the question asks about, for keeping near-duplicates out of one quiz: its item's idea, except that each
   * predict-the-output variant and each ordering path is one of its own.
   *
   * @param itemIdea the idea an item stands for (a rephrased ladder rung for an interview question)
   */
  String idea(Function<String, String> itemIdea) {
    return kind == Kind.PREDICT || kind == Kind.ORDER ? id : itemIdea.apply(item);
  }

  /** The right answer in words, for feedback and the end-of-quiz review. */
  String expected() {
    if (kind == Kind.SELF_GRADED) return explanation;
    if (kind == Kind.ORDER) {
      var steps = new StringBuilder();
      for (int i = 0; i < answer.size(); i++) steps.append(i == 0 ? "" : " → ").append(options.get(answer.get(i)));
      return steps.toString();
    }
    return options.get(answer.get(0));
  }
}
