package lab.exactlyonce.rubric;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.ServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** {@code POST /api/lessons/{id}/questions/{item}/score} through real HTTP, and what it refuses. */
class RubricRoutesTest extends ServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String L5 = "/api/lessons/exactly-once/questions/L5/score";

  private HttpResponse<String> post(String path, String body) {
    return server.postJson(path, body);
  }

  @Test
  void an_answer_comes_back_with_the_points_made_and_missed() throws Exception {
    HttpResponse<String> response = post(L5, "{\"answer\":\"The transactional id is registered, and a new session "
        + "bumps the epoch so that the zombie cannot commit.\"}");
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(""));
    JsonNode body = JSON.readTree(response.body());
    assertTrue(body.get("scored").asBoolean());
    assertEquals("L5", body.get("question").asText());
    assertEquals(List.of("A transactional.id registered with the transaction coordinator",
        "Each new session (initTransactions) bumps the id's epoch"),
        body.get("hit").findValuesAsText("label"));
    assertEquals("transactional id", body.get("hit").get(0).get("evidence").asText());
    assertEquals("Writes and commits with an older epoch are rejected", body.get("missed").get(0).asText());
    assertEquals(2, body.get("suggested").asInt());
  }

  @Test
  void one_learner_flooding_the_scorer_is_throttled_alone_while_classmates_on_the_same_address_are_scored() throws Exception {
    CookieClient flooder = learner("Flood");
    CookieClient classmate = learner("Kim");
    String answer = "{\"answer\":\"" + "The epoch is bumped. ".repeat(150) + "\"}";
    int scored = 0;
    HttpResponse<String> res;
    while ((res = flooder.post(L5, answer)).statusCode() == 200) scored++;
    assertEquals(RubricRoutes.PER_LEARNER_PER_MINUTE, scored, "a learner's budget a minute");
    assertEquals(429, res.statusCode(), res.body());
    String wait = res.headers().firstValue("Retry-After").orElseThrow();
    assertEquals("too many scored answers from you: at most " + RubricRoutes.PER_LEARNER_PER_MINUTE + " a minute; try "
        + "again in " + wait + " s", JSON.readTree(res.body()).get("error").asText());
    assertEquals(200, classmate.post(L5, answer).statusCode(), "same address, a budget of their own");
    assertEquals(200, post(L5, answer).statusCode(), "and the requests without a cookie have theirs");
  }

  private CookieClient learner(String name) {
    CookieClient learner = new CookieClient(server);
    assertEquals(200, learner.put("/api/me", "{\"displayName\":\"" + name + "\"}").statusCode());
    return learner;
  }

  @Test
  void the_lesson_page_names_the_questions_that_take_an_answer_but_carries_no_rubric() {
    String page = server.get("/lessons/exactly-once").body();
    assertTrue(page.contains("data-rubrics=\"[&quot;L1&quot;,"), "the page lists the questions with key points");
    assertTrue(page.contains("&quot;sq-architecture&quot;"));
    assertTrue(page.contains("&quot;iq7&quot;"), "interview questions share their ladder question's rubric");
    assertFalse(page.contains("ProducerFencedException"), "no rubric phrase reaches the page");
    assertFalse(page.contains("Writes and commits with an older epoch are rejected"), "no point label either");
  }

  static Stream<Arguments> refused() {
    String tooLong = "word ".repeat(AnswerScorer.MAX_ANSWER_CHARS / 5 + 1);
    return Stream.of(
        arguments("answer not a string", L5, "{\"answer\":5}", 400, "'answer' must be a string, got 5"),
        arguments("answer missing", L5, "{}", 400, "'answer' is required"),
        arguments("answer null", L5, "{\"answer\":null}", 400, "'answer' is required"),
        arguments("unknown field", L5, "{\"answer\":\"x\",\"rating\":4}", 400, "unknown field 'rating'"),
        arguments("not an object", L5, "[\"answer\"]", 400, "must be a JSON object"),
        arguments("not JSON", L5, "answer=epoch", 400, ""),
        arguments("answer too long", L5, "{\"answer\":\"" + tooLong + "\"}", 400,
            "'answer' must be at most 4000 characters, got " + tooLong.length()),
        arguments("body too large", L5, "{\"answer\":\"" + "x".repeat((int) RubricRoutes.MAX_BODY_BYTES) + "\"}", 413, ""),
        arguments("unknown question", "/api/lessons/exactly-once/questions/L99/score", "{\"answer\":\"x\"}", 404,
            "lesson 'exactly-once' has no key points for question 'L99'"),
        arguments("an item that is no question", "/api/lessons/exactly-once/questions/g-at-most-once/score",
            "{\"answer\":\"x\"}", 404, "has no key points for question 'g-at-most-once'"),
        arguments("unknown lesson", "/api/lessons/nope/questions/L5/score", "{\"answer\":\"x\"}", 404, "no lesson 'nope'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void a_hostile_request_gets_a_clear_4xx(String name, String path, String body, int status, String message) {
    HttpResponse<String> response = post(path, body);
    assertEquals(status, response.statusCode(), response.body());
    assertTrue(response.body().contains(message), response.body());
    assertFalse(response.body().contains("Exception"), "no stack trace: " + response.body());
  }

  @Test
  void a_body_that_is_not_declared_json_is_refused() {
    HttpResponse<String> response = server.post(L5, "text/plain", "{\"answer\":\"x\"}");
    assertEquals(415, response.statusCode(), response.body());
  }
}
