package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.TestServer;

import java.net.http.HttpResponse;

/** One learner's browser against a {@link TestServer}: keeps the learner cookie it was given and sends it back. */
final class LearnerClient extends CookieClient {
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
}
