package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** One browser against a {@link TestServer}: keeps the cookies it is given (learner, instructor) and sends them back. */
final class Client {
  static final ObjectMapper JSON = new ObjectMapper();

  private final TestServer server;
  final Map<String, String> cookies = new LinkedHashMap<>();

  Client(TestServer server) {
    this.server = server;
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

  HttpResponse<String> form(String path, Map<String, String> fields) {
    String body = fields.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    return send(request(path).header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  HttpRequest.Builder request(String path) {
    var builder = HttpRequest.newBuilder(URI.create(server.url(path)));
    String cookie = cookieHeader();
    if (!cookie.isEmpty()) builder.header("Cookie", cookie);
    return builder;
  }

  String cookieHeader() {
    return cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; "));
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    HttpResponse<String> response = server.send(request);
    response.headers().allValues("Set-Cookie").forEach(setCookie -> {
      String pair = setCookie.split(";", 2)[0];
      int eq = pair.indexOf('=');
      String name = pair.substring(0, eq);
      String value = pair.substring(eq + 1);
      if (value.isEmpty()) cookies.remove(name);
      else cookies.put(name, value);
    });
    return response;
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
