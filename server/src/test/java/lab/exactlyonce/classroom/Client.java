package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

/** A learner or instructor (by their cookies) against a {@link TestServer}, with the classroom's request shapes. */
final class Client extends CookieClient {
  static final ObjectMapper JSON = new ObjectMapper();

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
    HttpResponse<String> res = c.post("/api/join", "{\"code\":\"" + code + "\",\"nickname\":" + quote(nickname) + "}");
    if (res.statusCode() != 201) throw new AssertionError("join: " + res.statusCode() + " " + res.body());
    return c;
  }

  /** The answer body a student sends. */
  static String answer(String id, String round, int choice) {
    return "{\"id\":\"" + id + "\",\"round\":\"" + round + "\",\"choice\":" + choice + "}";
  }

  static String newId() {
    return UUID.randomUUID().toString();
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
}
