package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TestServer;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static lab.exactlyonce.CookieClient.JSON;
import static org.awaitility.Awaitility.await;

/** One learner talking to a test server: keeps the learner cookie like a browser would. */
final class QuizClient {
  private final TestServer server;
  private String cookie;

  QuizClient(TestServer server) {
    this.server = server;
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(URI.create(server.url(path))).GET());
  }

  HttpResponse<String> postJson(String path, String body) {
    return send(HttpRequest.newBuilder(URI.create(server.url(path)))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  HttpResponse<String> postForm(String path, String body) {
    return send(HttpRequest.newBuilder(URI.create(server.url(path)))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    if (cookie != null) request.header("Cookie", cookie);
    HttpResponse<String> response = server.send(request);
    response.headers().allValues("Set-Cookie").forEach(c -> {
      String pair = c.split(";", 2)[0];
      if (pair.startsWith("eolab_learner=")) cookie = pair.endsWith("=") ? null : pair;
    });
    return response;
  }

  /** Starts a session; fails the test unless it is created. */
  JsonNode start(String body) {
    HttpResponse<String> res = postJson("/api/quiz/sessions", body);
    if (res.statusCode() != 201) throw new AssertionError("session not created: " + res.statusCode() + " " + res.body());
    return json(res);
  }

  HttpResponse<String> answer(String eventId, JsonNode session, JsonNode question, String answerJson) {
    String lesson = question.get("id").asText().split("/")[0]; // a quiz across lessons records each in its own
    String body = "{\"id\":\"" + eventId + "\",\"type\":\"quiz.answer\",\"lesson\":\"" + lesson
        + "\",\"item\":\"" + question.get("item").asText() + "\",\"data\":{\"session\":\"" + session.get("id").asText()
        + "\",\"question\":\"" + question.get("id").asText() + "\"," + answerJson + "}}";
    return postJson("/api/events", body);
  }

  HttpResponse<String> answer(JsonNode session, JsonNode question, String answerJson) {
    return answer(UUID.randomUUID().toString(), session, question, answerJson);
  }

  /** The learner id in the signed cookie ({@code <id>.<key>.<mac>}); null before the server has set one. */
  String learnerId() {
    return cookie == null ? null : cookie.substring(cookie.indexOf('=') + 1, cookie.indexOf('.'));
  }

  /**
   * The lesson's bank ({@code GET /api/quiz/lessons/<id>}) once the questions built from sandbox runs are ready (the
   * first request starts those runs); fails the test after 80 s, before the test's own timeout.
   */
  JsonNode bankWhenRunsAreReady(String lesson) {
    return await("the questions built from sandbox runs ready").atMost(Duration.ofSeconds(80)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(200)).until(() -> json(get("/api/quiz/lessons/" + lesson)),
            bank -> bank.get("predictionsReady").asBoolean());
  }

  static JsonNode json(HttpResponse<String> res) {
    try {
      return JSON.readTree(res.body());
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + res.body(), e);
    }
  }
}
