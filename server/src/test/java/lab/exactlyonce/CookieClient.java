package lab.exactlyonce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

/** One browser against a {@link TestServer} without a browser: keeps the cookies it is given and sends them back. */
public class CookieClient {
  public static final ObjectMapper JSON = new ObjectMapper();
  protected final TestServer server;
  public final Map<String, String> cookies = new LinkedHashMap<>();

  public CookieClient(TestServer server) {
    this.server = server;
  }

  public HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  public HttpResponse<String> post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  public HttpResponse<String> put(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  public HttpResponse<String> delete(String path) {
    return send(request(path).DELETE());
  }

  public HttpResponse<String> form(String path, Map<String, String> fields) {
    String body = fields.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    return send(request(path).header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpRequest.Builder request(String path) {
    var builder = HttpRequest.newBuilder(URI.create(server.url(path)));
    String cookie = cookieHeader();
    if (!cookie.isEmpty()) builder.header("Cookie", cookie);
    return builder;
  }

  public String cookieHeader() {
    return cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; "));
  }

  /** Sends the request and keeps what {@code Set-Cookie} says; an empty value removes the cookie. */
  public HttpResponse<String> send(HttpRequest.Builder request) {
    HttpResponse<String> response = server.send(request);
    response.headers().allValues("Set-Cookie").forEach(setCookie -> setCookie(setCookie.split(";", 2)[0]));
    return response;
  }

  /** The cookie as the {@code name=value} pair a browser would send, or null when there is none. */
  public String cookie(String name) {
    String value = cookies.get(name);
    return value == null ? null : name + "=" + value;
  }

  /** A fresh id, such as events and answers carry. */
  public static String newId() {
    return UUID.randomUUID().toString();
  }

  /** Parses a response body that must be JSON. */
  public static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sets one cookie from a {@code name=value} pair; {@code name=} removes it. */
  public void setCookie(String pair) {
    int eq = pair.indexOf('=');
    String name = pair.substring(0, eq);
    String value = pair.substring(eq + 1);
    if (value.isEmpty()) cookies.remove(name);
    else cookies.put(name, value);
  }
}
