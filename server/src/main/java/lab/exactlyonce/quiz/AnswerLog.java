package lab.exactlyonce.quiz;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where quiz answers are recorded, exactly once per client-generated event id: the progress feature's event log
 * ({@code quiz.answer} events) in the app. Scores and schedules are derived from what is stored here.
 */
interface AnswerLog {
  /**
   * Stores {@code answer} under its id unless that learner already recorded the id; either way returns what is
   * stored (the original, with {@code repeated} set, for a repeat).
   *
   * @throws io.javalin.http.ConflictResponse when the id was recorded with a different body
   */
  Recorded record(String learner, Answer answer);

  /** The learner's answers for a lesson, in the order they were recorded. */
  List<Answer> answers(String learner, String lesson);

  /**
   * One stored {@code quiz.answer} event. {@code data} is what the learner sent ({@code session}, {@code question},
   * and {@code choice}, {@code order}, {@code rating} or {@code skip}); {@code result} is the server's grading
   * ({@code correct}, {@code rating}).
   */
  record Answer(String id, String lesson, String item, Map<String, Object> data, Map<String, Object> result,
                Instant recordedAt) {
    Answer {
      Objects.requireNonNull(id, "id");
      data = Map.copyOf(data);
      result = Map.copyOf(result);
    }

    String question() { return String.valueOf(data.get("question")); }

    String session() { return String.valueOf(data.get("session")); }

    boolean correct() { return Boolean.TRUE.equals(result.get("correct")); }

    int rating() { return ((Number) result.get("rating")).intValue(); }
  }

  record Recorded(Answer answer, boolean repeated) {}
}
