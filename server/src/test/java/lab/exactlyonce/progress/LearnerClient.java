package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.UUID;

/** One learner's browser against a {@link TestServer}: keeps the learner cookie it was given and sends it back. */
final class LearnerClient extends CookieClient {
  static final ObjectMapper JSON = new ObjectMapper();

  LearnerClient(TestServer server) {
    super(server);
  }

  /** A browser that already holds {@code cookie} ("eolab_learner=..."). */
  LearnerClient(TestServer server, String cookie) {
    super(server);
    setCookie(cookie);
  }

  /** "eolab_learner=..." as the browser would send it, or null. */
  String cookie() {
    return cookie("eolab_learner");
  }

  HttpResponse<String> event(String id, String type, String item, String dataJson) {
    return post("/api/events", eventJson(id, type, item, dataJson));
  }

  static String eventJson(String id, String type, String item, String dataJson) {
    return "{\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\""
        + (dataJson == null ? "" : ",\"data\":" + dataJson) + "}";
  }

  JsonNode progress() {
    HttpResponse<String> response = get("/api/progress/exactly-once");
    if (response.statusCode() != 200) throw new AssertionError("progress: " + response.statusCode() + " " + response.body());
    return json(response.body());
  }

  static String newId() {
    return UUID.randomUUID().toString();
  }

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
