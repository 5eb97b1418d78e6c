package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An event as stored: what the client sent, the {@code result} computed once when it was first recorded (for
 * example a quiz verdict), when, and its place in the learner's history ({@code seq}, increasing).
 */
public record RecordedEvent(String id, String type, String lesson, String item, JsonNode data, JsonNode result,
                            Instant recordedAt, long seq) {

  /** The response body of {@code POST /api/events}: identical for the first send and every retry. */
  public Map<String, Object> response() {
    var body = new LinkedHashMap<String, Object>();
    body.put("id", id);
    body.put("type", type);
    body.put("lesson", lesson);
    body.put("item", item);
    body.put("recordedAt", recordedAt.toString());
    body.put("result", result);
    return body;
  }

  /** True when {@code event} says the same thing as this stored one (same type, lesson, item and data). */
  public boolean sameBodyAs(NewEvent event) {
    return type.equals(event.type()) && lesson.equals(event.lesson()) && item.equals(event.item())
        && data.equals(event.data());
  }
}
