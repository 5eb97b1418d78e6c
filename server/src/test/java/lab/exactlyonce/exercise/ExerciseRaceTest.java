package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.Race;
import lab.exactlyonce.ReferenceSolutions;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Checks of one attempt sent at once over HTTP, run by the sandbox engine in this JVM: one check is recorded; sends of the same
 * code get its verdicts ({@code "repeated": true} but for the one that stored it); other code is 409; none is a 5xx.
 */
class ExerciseRaceTest extends ServerTest {
  static final String EXERCISE = "exactly-once-append";

  @Override
  protected TestServer startServer() {
    return TestServer.start();
  }

  static Stream<Arguments> races() {
    return Stream.of(
        arguments("12 sends of one attempt with one source", 12, 1),
        arguments("12 sends of one attempt with twelve sources", 12, 12),
        arguments("16 sends of one attempt with two sources", 16, 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("races")
  void one_check_per_attempt_is_recorded(String race, int sends, int sources) throws Exception {
    CookieClient learner = new CookieClient(server);
    learner.post("/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"guarantees\"}");
    String attempt = UUID.randomUUID().toString();
    String solution = ReferenceSolutions.of(EXERCISE);
    List<HttpResponse<String>> checks = Race.run(sends, i -> learner.post("/api/exercises/" + EXERCISE + "/check",
        JSON.createObjectNode().put("attempt", attempt).put("source", solution + "\n// variant " + (i % sources) + "\n").toString()));

    List<JsonNode> stored = new ArrayList<>();
    for (JsonNode e : JSON.readTree(learner.get("/api/me/export").body()).get("events")) {
      if (e.get("id").asText().equals(attempt)) stored.add(e);
    }
    assertEquals(1, stored.size(), race + ": " + stored);
    int fresh = 0;
    for (int i = 0; i < sends; i++) {
      HttpResponse<String> check = checks.get(i);
      assertTrue(check.statusCode() == 200 || check.statusCode() == 409, race + ": " + check.statusCode() + " " + check.body());
      JsonNode body = JSON.readTree(check.body());
      if (check.statusCode() == 409) {
        assertEquals("attempt '" + attempt + "' was already used for a check of other code; nothing was stored: send a new "
            + "attempt id with each Check", body.get("error").asText());
        continue;
      }
      assertEquals("ok", body.get("status").asText(), body.toString());
      assertTrue(body.get("passed").asBoolean());
      if (!body.get("repeated").asBoolean()) fresh++;
    }
    assertEquals(1, fresh, race + ": one response is the check that was stored");
    long sameCode = 0;
    for (int i = 0; i < sends; i++) if (checks.get(i).statusCode() == 200) sameCode++;
    assertFalse(sameCode == 0);
    if (sources == 1) assertEquals(sends, sameCode, "every send of the one source gets the verdicts");
  }
}
