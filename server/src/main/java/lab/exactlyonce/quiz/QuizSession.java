package lab.exactlyonce.quiz;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A quiz a learner started: its questions in order, fixed at creation.
 *
 * @param secondsPerQuestion the time limit per question in interview mode; 0 in practice mode
 */
record QuizSession(String id, String learner, String lesson, Mode mode, long seed, List<String> questions,
                   int secondsPerQuestion, Instant createdAt) {
  enum Mode {
    PRACTICE("practice"), INTERVIEW("interview");

    final String id;

    Mode(String id) { this.id = id; }

    static Mode parse(String text) {
      for (Mode m : values()) if (m.id.equals(text)) return m;
      return null;
    }
  }

  QuizSession {
    Objects.requireNonNull(mode, "mode");
    questions = List.copyOf(questions);
  }

  boolean contains(String questionId) {
    return questions.contains(questionId);
  }

  /** The fields every JSON view of a session starts with (the API's and the learner export's), in order. */
  Map<String, Object> fields() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("id", id);
    fields.put("lesson", lesson);
    fields.put("mode", mode.id);
    fields.put("seed", seed);
    fields.put("secondsPerQuestion", secondsPerQuestion);
    return fields;
  }
}
