package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.lesson.Lesson;

/**
 * One event type {@code POST /api/events} accepts. The progress feature brings its own (section.read, map.node,
 * map.edge, ladder.reveal, self.rating, snippet.run); another feature adds one by handing an {@code EventKind} to
 * {@link EventRoutes} (the quiz adds {@code quiz.answer}, whose result is the grading).
 */
public interface EventKind {
  /** The {@code type} string, such as {@code "quiz.answer"}. */
  String type();

  /**
   * Checks the item and data of an event of this type against the lesson.
   *
   * @throws io.javalin.http.BadRequestResponse (or another 4xx) with a message naming the culprit
   */
  void validate(Lesson lesson, String item, ObjectNode data);

  /**
   * The once-only fact an event of this type records (an answer to one question of one session), or null when the
   * event may be repeated under new ids; called after {@link #validate}.
   */
  default Fact fact(String learnerId, NewEvent event) {
    return null;
  }

  /** The result stored with a new event and returned on every retry; called once per event id. */
  default JsonNode result(String learnerId, Lesson lesson, NewEvent event) {
    return JsonNodeFactory.instance.objectNode();
  }

  /**
   * The recorded event as the learner may see it now, in the response to a send or a retry: the event itself, unless
   * the type hides part of its stored result for now (the quiz holds back a model answer an instructor holds).
   */
  default RecordedEvent shown(String learnerId, Lesson lesson, RecordedEvent event) {
    return event;
  }
}
