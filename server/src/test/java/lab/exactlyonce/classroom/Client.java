package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A learner or instructor (by their cookies) against a {@link TestServer}, with the classroom's request shapes. */
final class Client extends CookieClient {
  /** The instructor secret of {@link #config()}. */
  static final String SECRET = "correct-horse-battery-staple";

  /** The test configuration with {@link #SECRET} as the instructor secret. */
  static Config config() {
    Config config = TestConfig.defaults();
    return config.withClassroom(config.classroom().withInstructorSecret(SECRET));
  }

  Client(TestServer server) {
    super(server);
  }

  /** The same browser (its cookies) against another server, such as the app after a restart. */
  Client on(TestServer other) {
    Client c = new Client(other);
    c.cookies.putAll(cookies);
    return c;
  }

  /** Signs in as the instructor with {@code secret}; fails the test when that does not work. */
  static Client instructor(TestServer server, String secret) {
    Client c = new Client(server);
    HttpResponse<String> res = c.form("/teach/login", Map.of("secret", secret));
    if (res.statusCode() != 303) throw new AssertionError("sign-in: " + res.statusCode() + " " + res.body());
    return c;
  }

  /** A new learner who joins with {@code code} as {@code nickname}; fails the test unless it works. */
  static Client student(TestServer server, String code, String nickname) {
    Client c = new Client(server);
    HttpResponse<String> res = c.join(code, nickname);
    if (res.statusCode() != 201) throw new AssertionError("join: " + res.statusCode() + " " + res.body());
    return c;
  }

  /** Asks to join the class with {@code code} as {@code nickname}. */
  HttpResponse<String> join(String code, String nickname) {
    return post("/api/join", "{\"code\":" + quote(code) + ",\"nickname\":" + quote(nickname) + "}");
  }

  /** As the instructor: a live-session request ({@code push}, {@code reveal}, {@code leaderboard}, {@code end}). */
  HttpResponse<String> live(String classId, String action, String json) {
    return post("/api/teach/classes/" + classId + "/live/" + action, json);
  }

  /** As the instructor: asks question {@code questionId} live in class {@code classId}. */
  HttpResponse<String> push(String classId, String questionId) {
    return live(classId, "push", "{\"question\":" + quote(questionId) + "}");
  }

  /** As the instructor: asks question {@code questionId} live; returns the round it opened, or fails the test. */
  String pushRound(String classId, String questionId) {
    HttpResponse<String> res = push(classId, questionId);
    if (res.statusCode() != 200) throw new AssertionError("push: " + res.statusCode() + " " + res.body());
    return json(res).get("round").asText();
  }

  /** As a student: answers the open round of class {@code classId}. */
  HttpResponse<String> sendAnswer(String classId, String id, String round, int choice) {
    return post("/api/classes/" + classId + "/answers", answer(id, round, choice));
  }

  /** The answer body a student sends. */
  static String answer(String id, String round, int choice) {
    return "{\"id\":\"" + id + "\",\"round\":\"" + round + "\",\"choice\":" + choice + "}";
  }

  static String quote(String text) {
    try {
      return JSON.writeValueAsString(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode json(HttpResponse<String> response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON (" + response.statusCode() + "): " + response.body());
    }
  }

  static String error(String message) {
    return "{\"error\":" + quote(message) + "}";
  }

  /** Asserts that {@code res} is a refusal with this status and exactly this error message. */
  static void assertError(int status, String message, HttpResponse<String> res) {
    assertEquals(status, res.statusCode(), res.body());
    assertEquals(error(message), res.body());
  }
}
