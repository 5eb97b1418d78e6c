package lab.exactlyonce.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the simulated students' streams received of the live questions, shared by the load programs: when each student
 * first got each open round, and which rounds each has taken up (a reconnect replays the open question).
 */
final class QuestionReceipts {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** round id -> student -> nanoTime when its question event arrived. */
  final Map<String, Map<Integer, Long>> byRound = new ConcurrentHashMap<>();
  /** student -> rounds it has taken up; a student is here from its stream's first event. */
  final Map<Integer, Set<String>> taken = new ConcurrentHashMap<>();

  /** Whether this was the student's first event. */
  boolean seen(int student) {
    return taken.putIfAbsent(student, ConcurrentHashMap.newKeySet()) == null;
  }

  /**
   * Records a {@code question} event; the question's data when it is an open round the student sees for the first
   * time (to answer), otherwise empty. An event that cannot be read is named in {@code problems}.
   */
  Optional<JsonNode> firstSight(int student, SseHub.Event event, List<String> problems) {
    seen(student);
    if (!event.type().equals("question")) return Optional.empty();
    JsonNode data;
    try {
      data = JSON.readTree(event.data());
    } catch (IOException e) {
      problems.add("student " + student + ": unreadable question event " + event.data());
      return Optional.empty();
    }
    if (data.path("revealed").asBoolean(false)) return Optional.empty();
    String round = data.get("round").asText();
    byRound.computeIfAbsent(round, r -> new ConcurrentHashMap<>()).putIfAbsent(student, event.receivedNanos());
    return taken.get(student).add(round) ? Optional.of(data) : Optional.empty();
  }

  Map<Integer, Long> of(String round) {
    return byRound.computeIfAbsent(round, r -> new ConcurrentHashMap<>());
  }
}
