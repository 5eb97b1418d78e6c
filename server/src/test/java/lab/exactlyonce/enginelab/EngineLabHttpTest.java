package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The engine lab's routes on an app started without it (the default): the scenarios are listed with how to turn the
 * lab on, every bad request is refused naming what is wrong before anything would run, and a good one is 503 with
 * the same how-to.
 */
class EngineLabHttpTest extends ServerTest {

  @Test
  void the_scenarios_are_listed_with_the_sink_demos_knobs_and_how_to_turn_the_lab_on() throws Exception {
    HttpResponse<String> res = server.get("/api/lab/scenarios");
    assertEquals(200, res.statusCode(), res.body());
    JsonNode catalog = JSON.readTree(res.body());
    assertFalse(catalog.get("enabled").asBoolean());
    assertTrue(catalog.get("enable").asText().contains("--engine-lab on"), res.body());
    assertEquals("seed-crash", catalog.at("/scenarios/0/id").asText());
    assertEquals("sink-demo", catalog.at("/scenarios/0/simulation").asText());
    assertEquals("CRASH_AFTER", catalog.at("/scenarios/0/knobs/0/name").asText());
    assertEquals(4, catalog.at("/scenarios/0/knobs/0/default").asInt());
    assertEquals("fencing", catalog.at("/scenarios/1/id").asText());
    assertEquals("timeout-gotcha", catalog.at("/scenarios/2/id").asText());
  }

  static Stream<Arguments> refusals() {
    String huge = "x".repeat(5_000);
    return Stream.of(
        arguments("not JSON", "{scenario", 400, "not valid JSON"),
        arguments("an array", "[]", 400, "must be a JSON object"),
        arguments("no scenario", "{}", 400, "'scenario' is required"),
        arguments("an unknown field", "{\"scenario\":\"fencing\",\"x\":1}", 400, "unknown field 'x'"),
        arguments("an unknown scenario", "{\"scenario\":\"rm -rf\"}", 400, "unknown scenario 'rm -rf'; 'scenario' must be one of: seed-crash, fencing, timeout-gotcha, outbox-crash"),
        arguments("a scenario that is a number", "{\"scenario\":7}", 400, "'scenario'"),
        arguments("knobs that are not an object", "{\"scenario\":\"seed-crash\",\"knobs\":[1]}", 400, "'knobs'"),
        arguments("an unknown knob", "{\"scenario\":\"seed-crash\",\"knobs\":{\"TTL\":1}}", 400, "unknown knob 'TTL' of scenario 'seed-crash'; the knobs are CRASH_AFTER"),
        arguments("a knob on a scenario without any", "{\"scenario\":\"fencing\",\"knobs\":{\"CRASH_AFTER\":1}}", 400, "it takes no knobs"),
        arguments("a knob below its range", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":0}}", 400, "knob 'CRASH_AFTER' of scenario 'seed-crash'"),
        arguments("a knob above its range", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CHECKPOINT_AFTER\":6}}", 400, "knob 'CHECKPOINT_AFTER' of scenario 'seed-crash'"),
        arguments("a huge knob value", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":99999999999999999999999}}", 400, "knob 'CRASH_AFTER'"),
        arguments("a knob as text", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":\"4\"}}", 400, "knob 'CRASH_AFTER'"),
        arguments("a boolean knob as text", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_BEFORE_COMMIT\":\"yes\"}}", 400, "knob 'CRASH_BEFORE_COMMIT'"),
        arguments("a huge knob name", "{\"scenario\":\"seed-crash\",\"knobs\":{\"" + "K".repeat(1_500) + "\":1}}", 400, "unknown knob 'KKKK"),
        arguments("a body over the limit", "{\"scenario\":\"" + huge + "\"}", 413, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void a_bad_request_is_refused_naming_what_is_wrong(String what, String body, int status, String message)
      throws Exception {
    HttpResponse<String> res = server.postJson("/api/lab/real-runs", body);
    assertEquals(status, res.statusCode(), res.body());
    String error = JSON.readTree(res.body()).get("error").asText();
    assertTrue(error.contains(message), error);
    assertTrue(error.length() < 400, "the message stays short: " + error);
  }

  @Test
  void a_good_request_on_an_app_without_the_lab_says_how_to_turn_it_on() throws Exception {
    HttpResponse<String> res = server.postJson("/api/lab/real-runs", "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":3}}");
    assertEquals(503, res.statusCode(), res.body());
    assertEquals(EngineLabRoutes.HOW_TO_ENABLE, JSON.readTree(res.body()).get("error").asText());
    HttpResponse<String> status = server.get("/api/lab/real-runs/0123456789abcdef");
    assertEquals(503, status.statusCode(), status.body());
  }
}
