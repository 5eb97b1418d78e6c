package lab.exactlyonce.quiz;

import io.javalin.http.ConflictResponse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An answer log in memory: for tests, and for running without the progress feature's event store. */
final class MemoryAnswerLog implements AnswerLog {
  private final Map<String, LinkedHashMap<String, Answer>> byLearner = new HashMap<>();

  @Override
  public synchronized Recorded record(String learner, Answer answer) {
    var answers = byLearner.computeIfAbsent(learner, l -> new LinkedHashMap<>());
    Answer existing = answers.get(answer.id());
    if (existing != null) {
      if (!existing.lesson().equals(answer.lesson()) || !existing.item().equals(answer.item())
          || !existing.data().equals(answer.data())) {
        throw new ConflictResponse("event '" + answer.id() + "' was already recorded with a different body");
      }
      return new Recorded(existing, true);
    }
    answers.put(answer.id(), answer);
    return new Recorded(answer, false);
  }

  @Override
  public synchronized List<Answer> answers(String learner, String lesson) {
    List<Answer> out = new ArrayList<>();
    for (Answer a : byLearner.getOrDefault(learner, new LinkedHashMap<>()).values()) {
      if (a.lesson().equals(lesson)) out.add(a);
    }
    return out;
  }
}
