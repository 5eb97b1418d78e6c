package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

/** One learner's browser against a {@link TestServer}: keeps the learner cookie it was given and sends it back. */
final class LearnerClient {
  static final ObjectMapper JSON = new ObjectMapper();

  private final TestServer server;
  String cookie; // "eolab_learner=..." or null

  LearnerClient(TestServer server) {
    this.server = server;
  }

  LearnerClient(TestServer server, String cookie) {
    this.server = server;
    this.cookie = cookie;
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  HttpResponse<String> post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  HttpResponse<String> put(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  HttpResponse<String> delete(String path) {
    return send(request(path).DELETE());
  }

  HttpRequest.Builder request(String path) {
    var builder = HttpRequest.newBuilder(URI.create(server.url(path)));
    if (cookie != null) builder.header("Cookie", cookie);
    return builder;
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    HttpResponse<String> response = server.send(request);
    response.headers().allValues("Set-Cookie").forEach(setCookie -> {
      String pair = setCookie.split(";", 2)[0];
      if (!pair.startsWith("eolab_learner=")) return;
      cookie = pair.equals("eolab_learner=") ? null : pair;
    });
    return response;
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
