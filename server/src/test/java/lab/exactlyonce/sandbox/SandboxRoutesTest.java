package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.bench.LoopbackClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The sandbox's HTTP contract, as a table of requests and whole answers (the runs go to a fake worker). */
@Tag("sandbox")
class SandboxRoutesTest extends ServerTest {

  @Override
  protected TestServer startServer() {
    return TestServer.startWithRealSandbox(TestConfig.defaults().withSandbox(SandboxPoolTest.settings(3))).awaitSandbox();
  }

  static String big(int bytes) {
    return "{\"source\": \"" + "x".repeat(bytes) + "\"}";
  }

  /** A JSON run that prints {@code stdout}. */
  static Arguments ran(String desc, String contentType, String body, String stdout) throws Exception {
    return arguments(desc, contentType, body, 200, JSON.writeValueAsString(Map.of("status", "ok", "stdout", stdout,
        "stderr", "", "diagnostics", List.of(), "elapsedMs", 0, "trace", List.of())));
  }

  /** A JSON request refused as a bad request with exactly {@code message}. */
  static Arguments badRequest(String desc, String body, String message) throws Exception {
    return refused(desc, "application/json", body, 400, message);
  }

  /** A request refused with {@code status} and exactly {@code message}. */
  static Arguments refused(String desc, String contentType, String body, int status, String message) throws Exception {
    return arguments(desc, contentType, body, status, JSON.writeValueAsString(Map.of("error", message)));
  }

  static Stream<Arguments> requests() throws Exception {
    String notJson = "the request body is not valid JSON: ";
    String notObject = "the request body must be a JSON object";
    String missing = "'source' is required";
    String wrongType = "the request body must be JSON sent with 'Content-Type: application/json', got ";
    return Stream.of(
        ran("a run answers its result", "application/json", "{\"source\": \"print hi\"}", "hi\n"),
        ran("a charset parameter is fine", "application/json; charset=utf-8", "{\"source\": \"print \u00e9\"}", "\u00e9\n"),
        badRequest("not JSON", "print hi", notJson + "Unrecognized token 'print': was expecting (JSON String, Number, "
            + "Array, Object or token 'null', 'true' or 'false')"),
        badRequest("an empty body", "", notObject),
        badRequest("truncated JSON", "{\"source\": \"print", notJson + "Unexpected end-of-input in VALUE_STRING"),
        badRequest("a JSON array", "[\"print hi\"]", notObject),
        badRequest("no source", "{}", missing),
        badRequest("a null source", "{\"source\": null}", missing),
        badRequest("a blank source", "{\"source\": \"  \\n\"}", "'source' is blank: there is nothing to run"),
        badRequest("a numeric source", "{\"source\": 42}", "'source' must be a string, got 42"),
        badRequest("an array source", "{\"source\": [\"a\"]}", "'source' must be a string, got [\"a\"]"),
        badRequest("an unknown field", "{\"source\": \"print hi\", \"lang\": \"java\"}",
            "unknown field 'lang'; the fields are 'source', 'snippet' and 'params'"),
        badRequest("unknown fields", "{\"code\": \"x\", \"stdin\": \"\"}",
            "unknown fields 'code', 'stdin'; the fields are 'source', 'snippet' and 'params'"),
        refused("a source over 64 KB", "application/json", big(64 * 1024 + 1), 413,
            "the source is 65537 bytes; the limit is 65536 bytes"),
        refused("a plain-text body", "text/plain", "{\"source\": \"print hi\"}", 415, wrongType + "'text/plain'"),
        refused("a form body", "application/x-www-form-urlencoded", "source=print+hi", 415,
            wrongType + "'application/x-www-form-urlencoded'"),
        refused("no content type", null, "{\"source\": \"print hi\"}", 415, wrongType + "no Content-Type"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("requests")
  void post_run(String desc, String contentType, String body, int status, String expected) throws Exception {
    HttpResponse<String> res = server.post("/api/run", contentType, body);
    assertEquals(status, res.statusCode(), res.body());
    assertEquals("application/json", res.headers().firstValue("Content-Type").orElse("").split(";")[0]);
    assertEquals(JSON.readTree(expected), withoutTiming(JSON.readTree(res.body())));
  }

  static Stream<Arguments> gets() {
    return Stream.of(
        arguments("the snippet list", "/api/snippets", 200,
            "[{\"id\":\"sink-demo\",\"title\":\"Three sinks after a crash\",\"lesson\":\"exactly-once\"},"
                + "{\"id\":\"txn-dedupe-demo\",\"title\":\"Transactions and a TTL seen-set\",\"lesson\":\"exactly-once\"},"
                + "{\"id\":\"outbox-demo\",\"title\":\"Dual write, outbox and inbox after a crash\",\"lesson\":\"outbox\"}]"),
        arguments("an unknown snippet", "/api/snippets/no-such-demo", 404, "{\"error\":\"no snippet 'no-such-demo'\"}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("gets")
  void get(String desc, String path, int status, String expected) throws Exception {
    HttpResponse<String> res = server.get(path);
    assertEquals(status, res.statusCode(), res.body());
    assertEquals(JSON.readTree(expected), JSON.readTree(res.body()));
  }

  @Test
  void a_snippet_has_its_source_expected_output_and_explanation() throws Exception {
    JsonNode s = JSON.readTree(server.get("/api/snippets/sink-demo").body());
    assertEquals("sink-demo", s.get("id").asText());
    assertEquals("Three sinks after a crash", s.get("title").asText());
    assertEquals("AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        s.get("expectedOutput").asText());
    assertTrue(s.get("source").asText().startsWith("import java.util.*;\nimport lab.exactlyonce.sandbox.engine.Trace;\n\npublic class SinkDemo {"),
        "the header lines are not part of the source");
    assertTrue(s.get("explanation").asText().startsWith("The append sink wrote o3 and o4 twice: they were written"));
  }

  @Test
  void a_flooding_client_gets_429_with_retry_after_while_another_client_is_served() throws Exception {
    // the cap is 3 runs waiting or running per client
    List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      flood.add(CompletableFuture.supplyAsync(() -> server.postJson("/api/run", "{\"source\": \"sleep 600\"}")));
    }
    Sandbox sandbox = (Sandbox) server.app().sandbox();
    await("three runs of the flood taken, three refused").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> sandbox.busyWorkers() + sandbox.waitingRuns() == 3
            && flood.stream().filter(CompletableFuture::isDone).count() == 3);
    LoopbackClient.Response other;
    try (var student = new LoopbackClient("127.0.0.2", "127.0.0.1", server.app().port())) {
      other = student.post("/api/run", "application/json", "{\"source\": \"print other\"}");
    }
    assertEquals(200, other.status(), other.body());
    assertEquals("other\n", JSON.readTree(other.body()).get("stdout").asText());
    assertTrue(flood.stream().anyMatch(f -> !f.isDone()), "another student's run waited for the whole flood");
    int refused = 0;
    for (var f : flood) {
      HttpResponse<String> res = f.get();
      if (res.statusCode() == 429) {
        refused++;
        assertEquals("{\"error\":\"you already have 3 runs waiting or running (the limit is 3); wait for them to "
            + "finish; try again in 1 s\"}", res.body());
        assertEquals("1", res.headers().firstValue("Retry-After").orElse("missing"));
      } else {
        assertEquals(200, res.statusCode(), res.body());
      }
    }
    assertEquals(3, refused);
  }

  @Test
  void the_snippet_reads_without_javascript_source_expected_output_and_explanation() {
    String page = server.get("/lessons/exactly-once").body();
    int start = page.indexOf("<article class=\"sandbox\" id=\"sandbox/sink-demo\"");
    assertTrue(start >= 0, "the sink demo is on the page");
    String article = page.substring(start, page.indexOf("</article>", start));
    assertTrue(article.contains("<h4 class=\"sandbox-title\" id=\"sandbox/sink-demo/title\">Three sinks after a crash</h4>"));
    assertTrue(article.contains("<pre class=\"sandbox-source\" data-source=\"\" tabindex=\"0\" "
        + "aria-label=\"Java source of Three sinks after a crash\"><code class=\"language-java\">import java.util.*;"));
    assertTrue(article.contains("static final int CRASH_AFTER = 4;"));
    assertTrue(article.contains("<div class=\"sandbox-toolbar\" role=\"toolbar\" aria-label=\"Snippet Three sinks "
        + "after a crash\" hidden=\"\">"), "the buttons need JavaScript, so they start hidden");
    assertTrue(article.contains("<span class=\"sandbox-label\">Expected output</span><pre class=\"sandbox-expected-output\" "
        + "data-expected-output=\"\">AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\n"
        + "TwoPhaseSink rows=5 sum=150 OK\n</pre>"));
    assertTrue(article.contains("<span class=\"sandbox-label\">What happened</span><p>The append sink wrote o3 and o4 twice"));
  }

  /** The answer with its times, which vary, set aside; a run that went through a worker must say where they went. */
  static JsonNode withoutTiming(JsonNode node) {
    if (node.has("elapsedMs")) {
      ((ObjectNode) node).put("elapsedMs", 0);
      assertTrue(node.path("timing").path("roundTripMs").isNumber(), node::toString);
      ((ObjectNode) node).remove("timing");
    }
    return node;
  }
}
