package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.progress.Progress;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.sandbox.engine.SourceHash;

import java.util.Optional;

/**
 * Records every check of an exercise as an {@code exercise.check} event, exactly once per attempt: the client sends
 * a fresh attempt id (a UUID) with each Check, and the event id is that attempt, so a resent request stores
 * nothing new and gets the recorded verdicts back. The event's data is the SHA-256 of the checked source (a reused
 * attempt id with another source is a conflict); its result is what the learner saw, without the program output:
 * {@code {"status", "passed", "scenarios", "diagnostics", "elapsedMs"}}. Progress and the quiz read {@code passed}
 * and {@code status} from it. Free of HTTP.
 */
final class CheckLog {
  static final String TYPE = Progress.EXERCISE_CHECK;
  /** Stays well inside the events table's result column (16,000 characters). */
  static final int MAX_RESULT_CHARS = 12_000;
  private static final int TRIMMED_LIST = 3;
  static final int MAX_TEXT = 500;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EventLog log;

  CheckLog(EventLog log) {
    this.log = log;
  }

  /** The check this learner already recorded under this attempt id, if any. */
  Optional<RecordedEvent> earlier(String learner, String attempt) {
    return log.find(learner, attempt);
  }

  /** Whether this learner has had any check of the exercise recorded (after which its reference solution opens). */
  boolean checked(String learner, Exercise exercise) {
    return log.ofType(learner, TYPE).stream().anyMatch(e -> e.item().equals(exercise.id()) && e.lesson().equals(exercise.lesson()));
  }

  /** Records the check unless the attempt is recorded already; see {@link EventLog#record}. */
  EventLog.Outcome record(String learner, Exercise exercise, String attempt, String source, CheckResult result) {
    return log.record(learner, event(exercise, attempt, source), e -> summary(result));
  }

  /** The event a check of {@code source} under {@code attempt} is stored as. */
  static NewEvent event(Exercise exercise, String attempt, String source) {
    ObjectNode data = JsonNodeFactory.instance.objectNode().put("source", SourceHash.of(source));
    return new NewEvent(attempt, TYPE, exercise.lesson(), exercise.id(), data);
  }

  /**
   * The stored result: the check as answered, without stdout and stderr, made to fit the column. Verdicts and
   * messages can quote the learner's own text (an exception message), so each is cut to {@value #MAX_TEXT}
   * characters; if the whole is still too long, the lists are shortened, then the verdicts left out (each scenario
   * keeps its name and whether it passed). {@code status} and {@code passed}, which progress and the quiz read, always
   * stay.
   */
  static ObjectNode summary(CheckResult result) {
    ObjectNode node = JSON.valueToTree(result);
    node.remove("stdout");
    node.remove("stderr");
    for (JsonNode scenario : node.withArray("scenarios")) {
      ((ObjectNode) scenario).put("name", cut(scenario.path("name").asText()));
      ArrayNode verdicts = (ArrayNode) scenario.get("verdicts");
      for (int i = 0; i < verdicts.size(); i++) verdicts.set(i, cut(verdicts.get(i).asText()));
    }
    for (JsonNode diagnostic : node.withArray("diagnostics")) {
      ((ObjectNode) diagnostic).put("message", cut(diagnostic.path("message").asText()));
    }
    if (fits(node)) return node;
    for (JsonNode scenario : node.withArray("scenarios")) trim((ArrayNode) scenario.get("verdicts"), TRIMMED_LIST);
    trim(node.withArray("diagnostics"), TRIMMED_LIST);
    if (fits(node)) return node;
    for (JsonNode scenario : node.withArray("scenarios")) ((ObjectNode) scenario).putArray("verdicts");
    trim(node.withArray("diagnostics"), 1);
    if (fits(node)) return node;
    node.putArray("scenarios");
    return node;
  }

  private static boolean fits(ObjectNode node) {
    return node.toString().length() <= MAX_RESULT_CHARS;
  }

  private static String cut(String text) {
    return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT - 1) + "…";
  }

  /** The answer to a resent attempt: the recorded verdicts; the program's output was not kept. */
  static ObjectNode repeated(RecordedEvent recorded) {
    ObjectNode node = recorded.result().deepCopy();
    node.put("stdout", "");
    node.put("stderr", "");
    return node;
  }

  private static void trim(ArrayNode list, int size) {
    while (list.size() > size) list.remove(list.size() - 1);
  }

}
