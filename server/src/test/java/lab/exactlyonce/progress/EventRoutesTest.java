package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.lesson.BundledLessons;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.progress.LearnerClient.eventJson;
import static lab.exactlyonce.progress.LearnerClient.json;
import static lab.exactlyonce.progress.LearnerClient.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** {@code POST /api/events}, {@code GET} and {@code DELETE /api/progress/{lesson}} through real HTTP. */
class EventRoutesTest extends ServerTest {
  private static final String ID = "0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10";

  @Test
  void a_first_event_makes_a_learner_and_is_acknowledged_with_what_was_stored() {
    var learner = new LearnerClient(server);
    String id = newId();
    HttpResponse<String> response = learner.event(id, "section.read", "three-links", null);

    assertEquals(200, response.statusCode(), response.body());
    JsonNode body = json(response.body());
    assertEquals(id, body.get("id").asText());
    assertEquals("section.read", body.get("type").asText());
    assertEquals("exactly-once", body.get("lesson").asText());
    assertEquals("three-links", body.get("item").asText());
    assertTrue(body.get("recordedAt").asText().endsWith("Z"), body.toString());
    assertEquals("{}", body.get("result").toString());
    String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
    assertTrue(setCookie.contains("HttpOnly"), setCookie);
    assertTrue(setCookie.contains("SameSite=Lax"), setCookie);
    assertEquals(List.of("three-links"), names(learner.progress().get("sectionsRead")));
  }

  @Test
  void a_retry_returns_the_original_response_and_stores_nothing_more() {
    var learner = new LearnerClient(server);
    String id = newId();
    String first = learner.event(id, "map.node", "sink", null).body();
    HttpResponse<String> again = learner.event(id, "map.node", "sink", null);

    assertEquals(200, again.statusCode());
    assertEquals(first, again.body());
    assertEquals(List.of("sink"), names(learner.progress().get("nodesExplored")));
  }

  @Test
  void the_same_id_with_a_different_body_is_a_conflict_that_names_the_original() {
    var learner = new LearnerClient(server);
    String id = newId();
    String original = learner.event(id, "self.rating", "L1", "{\"rating\":3}").body();
    HttpResponse<String> conflict = learner.event(id, "self.rating", "L1", "{\"rating\":1}");

    assertEquals(409, conflict.statusCode());
    JsonNode body = json(conflict.body());
    assertEquals("event id '" + id + "' was already used for a different event (self.rating of 'L1' in lesson "
        + "'exactly-once'); nothing was stored: send a new id for a new event", body.get("error").asText());
    assertEquals(json(original), body.get("original"));
    assertEquals(3, learner.progress().at("/rungs/L1/rating").asInt());
  }

  @Test
  void the_same_id_from_two_learners_is_two_events() {
    var ann = new LearnerClient(server);
    var bob = new LearnerClient(server);
    String id = newId();
    assertEquals(200, ann.event(id, "map.edge", "source-to-operators", null).statusCode());
    assertEquals(200, bob.event(id, "snippet.run", "sink-demo", "{\"status\":\"ok\"}").statusCode());

    assertEquals(List.of("source-to-operators"), names(ann.progress().get("edgesExplored")));
    assertEquals(List.of(), names(bob.progress().get("edgesExplored")));
    assertEquals(1, bob.progress().at("/snippets/sink-demo/runs").asInt());
  }

  static Stream<Arguments> badEvents() {
    String tooLong = "x".repeat(4100);
    return Stream.of(
        arguments("unknown type", eventJson(ID, "section.skimmed", "three-links", null), 400,
            "unknown event type 'section.skimmed'; known types: section.read, map.node, map.edge, ladder.reveal, "
                + "self.rating, snippet.run, quiz.answer"),
        arguments("missing type", "{\"id\":\"" + ID + "\",\"lesson\":\"exactly-once\",\"item\":\"x\"}", 400,
            "unknown event type (missing 'type'); known types: section.read, map.node, map.edge, ladder.reveal, "
                + "self.rating, snippet.run, quiz.answer"),
        arguments("unknown lesson", "{\"id\":\"" + ID + "\",\"type\":\"section.read\",\"lesson\":\"nope\",\"item\":\"x\"}", 400,
            BundledLessons.unknown("nope")),
        arguments("unknown section", eventJson(ID, "section.read", "no-such-section", null), 400,
            "lesson 'exactly-once' has no section 'no-such-section'"),
        arguments("unknown node", eventJson(ID, "map.node", "toaster", null), 400,
            "lesson 'exactly-once' has no map node 'toaster'"),
        arguments("node id as edge", eventJson(ID, "map.edge", "sink", null), 400,
            "lesson 'exactly-once' has no map edge 'sink'"),
        arguments("unknown rung", eventJson(ID, "ladder.reveal", "L9", null), 400,
            "lesson 'exactly-once' has no ladder question 'L9'"),
        arguments("unknown snippet", eventJson(ID, "snippet.run", "hello", "{\"status\":\"ok\"}"), 400,
            "lesson 'exactly-once' has no snippet 'hello'"),
        arguments("malformed id", eventJson("not-a-uuid", "section.read", "three-links", null), 400,
            "'id' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10, got 'not-a-uuid'"),
        arguments("missing id", "{\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"three-links\"}", 400,
            "'id' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10, got nothing"),
        arguments("numeric id", "{\"id\":7,\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"three-links\"}", 400,
            "'id' must be a string, got 7"),
        arguments("item with a slash", eventJson(ID, "section.read", "gist/three-links", null), 400,
            "'item' must be an item id (letters, digits, '-' or '_'), got 'gist/three-links'"),
        arguments("rating 0", eventJson(ID, "self.rating", "L1", "{\"rating\":0}"), 400,
            "'data.rating' must be a whole number from 1 (Again) to 4 (Easy), got 0"),
        arguments("rating 5", eventJson(ID, "self.rating", "L1", "{\"rating\":5}"), 400,
            "'data.rating' must be a whole number from 1 (Again) to 4 (Easy), got 5"),
        arguments("rating 2.5", eventJson(ID, "self.rating", "L1", "{\"rating\":2.5}"), 400,
            "'data.rating' must be a whole number, got 2.5"),
        arguments("rating missing", eventJson(ID, "self.rating", "L1", "{}"), 400,
            "'data.rating' is required"),
        arguments("unknown outcome", eventJson(ID, "snippet.run", "sink-demo", "{\"status\":\"great\"}"), 400,
            "'data.status' must be one of ok, compile_error, rejected, runtime_error, timeout, memory_limit, "
                + "output_limit, internal_error, got \"great\""),
        arguments("data on a read", eventJson(ID, "section.read", "three-links", "{\"seconds\":3}"), 400,
            "unknown field 'data.seconds'; 'data' takes no fields"),
        arguments("data not an object", eventJson(ID, "section.read", "three-links", "[1]"), 400,
            "'data' must be an object, got [1]"),
        arguments("unknown field", "{\"id\":\"" + ID + "\",\"type\":\"section.read\",\"lesson\":\"exactly-once\","
            + "\"item\":\"three-links\",\"learner\":\"someone-else\"}", 400,
            "unknown field 'learner'; the fields are 'id', 'type', 'lesson', 'item' and 'data'"),
        arguments("reset from a client", eventJson(ID, "progress.reset", "exactly-once", null), 400,
            "unknown event type 'progress.reset'; known types: section.read, map.node, map.edge, ladder.reveal, "
                + "self.rating, snippet.run, quiz.answer"),
        arguments("not JSON", "{\"id\":", 400, "the request body is not valid JSON: Unexpected end-of-input within/between Object entries"),
        arguments("a JSON array", "[]", 400, "the request body must be a JSON object"),
        arguments("oversized", eventJson(ID, "section.read", "three-links", "{\"note\":\"" + tooLong + "\"}"), 413,
            "the request body is 4231 bytes; the limit is 4096 bytes"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badEvents")
  void a_bad_event_is_refused_with_a_clear_message_and_nothing_is_stored(String desc, String body, int status, String message) {
    var learner = new LearnerClient(server);
    learner.event(newId(), "section.read", "guarantees", null); // an existing learner, so we can look at what is stored
    HttpResponse<String> response = learner.post("/api/events", body);

    assertEquals(status, response.statusCode(), response.body());
    assertEquals(message, json(response.body()).get("error").asText());
    assertNothingMoreStored(learner);
  }

  @Test
  void a_bad_first_event_makes_no_learner() {
    var learner = new LearnerClient(server);
    HttpResponse<String> response = learner.event(ID, "self.rating", "L1", "{\"rating\":5}");

    assertEquals(400, response.statusCode());
    assertTrue(response.headers().allValues("Set-Cookie").isEmpty(), response.headers().toString());
  }

  @Test
  void an_event_must_be_sent_as_json() {
    var learner = new LearnerClient(server);
    HttpResponse<String> response = learner.send(learner.request("/api/events").header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString(eventJson(ID, "section.read", "three-links", null))));

    assertEquals(415, response.statusCode());
    assertEquals("the request body must be JSON sent with 'Content-Type: application/json', got 'text/plain'",
        json(response.body()).get("error").asText());
    assertNull(learner.cookie());
  }

  @Test
  void a_tampered_cookie_is_refused_cleared_and_nothing_is_stored() {
    var learner = new LearnerClient(server);
    learner.event(newId(), "section.read", "guarantees", null);
    String genuine = learner.cookie();
    String otherId = "11111111-2222-4333-8444-555555555555";
    String forged = "eolab_learner=" + otherId + genuine.substring(genuine.indexOf('.'));
    var mallory = new LearnerClient(server, forged);

    HttpResponse<String> response = mallory.event(newId(), "section.read", "three-links", null);

    assertEquals(400, response.statusCode());
    assertEquals("the learner cookie 'eolab_learner' was not signed by this server (edited or damaged); it has been "
        + "cleared: send the request again to continue as a new learner", json(response.body()).get("error").asText());
    assertTrue(response.headers().firstValue("Set-Cookie").orElseThrow().startsWith("eolab_learner=;"),
        response.headers().toString());
    assertEquals(400, new LearnerClient(server, forged).get("/api/progress/exactly-once").statusCode());
    assertEquals(400, new LearnerClient(server, "eolab_learner=garbage").get("/api/me").statusCode());
    assertEquals(List.of("guarantees"), names(learner.progress().get("sectionsRead")));
  }

  @Test
  void a_cookie_from_another_instance_on_the_same_host_counts_as_no_cookie() {
    String otherCookie;
    try (TestServer other = TestServer.start()) {
      var there = new LearnerClient(other);
      there.event(newId(), "section.read", "guarantees", null);
      otherCookie = there.cookie();
    }
    var learner = new LearnerClient(server, otherCookie);
    assertEquals(0, learner.progress().at("/tabs/gist/done").asInt());
    HttpResponse<String> response = learner.event(newId(), "section.read", "three-links", null);

    assertEquals(200, response.statusCode(), response.body());
    assertTrue(learner.cookie() != null && !learner.cookie().equals(otherCookie), "a new learner cookie replaces the foreign one");
    assertEquals(List.of("three-links"), names(learner.progress().get("sectionsRead")));
  }

  static Stream<Arguments> foreignOrigins() {
    return Stream.of(
        arguments("no Origin", null, null,
            "request refused: a POST to /api/events must carry an Origin header naming this site (browsers send it; "
                + "other clients must add it)"),
        arguments("foreign Origin", "https://evil.example", null,
            "cross-site request refused: Origin 'https://evil.example' is not this site (127.0.0.1:PORT)"),
        arguments("cross-site fetch", "https://evil.example", "cross-site",
            "cross-site request refused: Sec-Fetch-Site is 'cross-site'; changes are only accepted from this site's own pages"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("foreignOrigins")
  void a_state_change_from_another_site_is_refused(String desc, String origin, String fetchSite, String message) {
    var learner = new LearnerClient(server);
    learner.event(newId(), "section.read", "guarantees", null);
    var request = HttpRequest.newBuilder(URI.create(server.url("/api/events")))
        .header("Content-Type", "application/json").header("Cookie", learner.cookie())
        .POST(HttpRequest.BodyPublishers.ofString(eventJson(newId(), "section.read", "three-links", null)));
    if (origin != null) request.header("Origin", origin);
    if (fetchSite != null) request.header("Sec-Fetch-Site", fetchSite);

    HttpResponse<String> response = server.sendAsIs(request.build());

    assertEquals(403, response.statusCode());
    assertEquals(message.replace("PORT", String.valueOf(server.app().port())), json(response.body()).get("error").asText());
    assertNothingMoreStored(learner);
    var reset = HttpRequest.newBuilder(URI.create(server.url("/api/progress/exactly-once"))).header("Cookie", learner.cookie()).DELETE();
    if (origin != null) reset.header("Origin", origin);
    assertEquals(403, server.sendAsIs(reset.build()).statusCode());
    assertNothingMoreStored(learner);
  }

  @Test
  void same_origin_fetch_metadata_is_enough() {
    var learner = new LearnerClient(server);
    var request = HttpRequest.newBuilder(URI.create(server.url("/api/events")))
        .header("Content-Type", "application/json").header("Sec-Fetch-Site", "same-origin")
        .POST(HttpRequest.BodyPublishers.ofString(eventJson(newId(), "section.read", "three-links", null)));
    assertEquals(200, server.sendAsIs(request.build()).statusCode());
  }

  @Test
  void progress_is_derived_per_tab_with_the_latest_rating_outcome_and_location() {
    var learner = new LearnerClient(server);
    JsonNode empty = learner.progress();
    assertEquals(0, empty.at("/tabs/gist/done").asInt());
    assertTrue(empty.get("last").isNull());
    int gistTotal = empty.at("/tabs/gist/total").asInt();
    int qaTotal = empty.at("/tabs/qa/total").asInt();

    learner.event(newId(), "section.read", "three-links", null);
    learner.event(newId(), "section.read", "three-links", null); // read twice, counted once
    learner.event(newId(), "section.read", "guarantees", null);
    learner.event(newId(), "ladder.reveal", "L1", null);
    learner.event(newId(), "self.rating", "L1", "{\"rating\":1}");
    learner.event(newId(), "self.rating", "L1", "{\"rating\":4}");
    learner.event(newId(), "self.rating", "L2", "{\"rating\":3}"); // rating without a reveal event still means seen
    learner.event(newId(), "snippet.run", "sink-demo", "{\"status\":\"compile_error\"}");
    learner.event(newId(), "snippet.run", "sink-demo", "{\"status\":\"ok\"}");
    learner.event(newId(), "map.node", "sink", null);

    JsonNode p = learner.progress();
    assertEquals(List.of("three-links", "guarantees"), names(p.get("sectionsRead")));
    assertEquals(2, p.at("/tabs/gist/done").asInt());
    assertEquals(gistTotal, p.at("/tabs/gist/total").asInt());
    assertEquals(2.0 / gistTotal, p.at("/tabs/gist/fraction").asDouble(), 1e-9);
    assertEquals(2, p.at("/tabs/qa/done").asInt());
    assertEquals(qaTotal, p.at("/tabs/qa/total").asInt());
    assertEquals(4, p.at("/rungs/L1/rating").asInt());
    assertEquals("Easy", p.at("/rungs/L1/ratingLabel").asText());
    assertTrue(p.at("/rungs/L2/revealed").asBoolean());
    assertEquals(2, p.at("/snippets/sink-demo/runs").asInt());
    assertEquals("ok", p.at("/snippets/sink-demo/status").asText());
    assertEquals(1, p.at("/tabs/sandbox/done").asInt());
    assertEquals(1, p.at("/tabs/maps/done").asInt());
    assertEquals("#maps/node/sink", p.at("/last/hash").asText());
    assertEquals("maps", p.at("/last/tab").asText());
  }

  @Test
  void reading_the_section_around_the_last_answer_keeps_the_resume_point_on_that_answer() {
    LearnerClient learner = new LearnerClient(server);
    learner.event(newId(), "ladder.reveal", "L2", null);
    // The section's end scrolls into view as the answer opens: the resume point stays on the answer.
    learner.event(newId(), "section.read", "ladder", null);
    JsonNode p = learner.progress();
    assertEquals("#qa/L2", p.at("/last/hash").asText());
    assertTrue(names(p.get("sectionsRead")).contains("ladder"), "the section still counts as read");

    learner.event(newId(), "section.read", "design-scenario", null); // reading on moves it
    assertEquals("#qa/design-scenario", learner.progress().at("/last/hash").asText());
  }

  @Test
  void each_tab_lists_its_items_and_the_page_can_count_them_by_the_keys_done() {
    var learner = new LearnerClient(server);
    learner.event(newId(), "section.read", "three-links", null);
    learner.event(newId(), "map.edge", "sink-demo", null); // not an edge of the lesson: rejected, counted nowhere
    learner.event(newId(), "snippet.run", "sink-demo", "{\"status\":\"ok\"}");

    JsonNode p = learner.progress();
    assertEquals(List.of("section:three-links", "snippet:sink-demo"), names(p.get("done")));
    assertTrue(names(p.at("/tabs/gist/items")).contains("section:three-links"));
    assertTrue(names(p.at("/tabs/sandbox/items")).contains("snippet:sink-demo"));
    assertFalse(names(p.at("/tabs/gist/items")).contains("snippet:sink-demo"));
    for (String tab : List.of("gist", "maps", "qa", "sandbox")) {
      List<String> items = names(p.at("/tabs/" + tab + "/items"));
      assertEquals(items.size(), p.at("/tabs/" + tab + "/total").asInt(), tab);
      assertEquals(items.stream().filter(names(p.get("done"))::contains).count(), p.at("/tabs/" + tab + "/done").asInt(), tab);
    }
  }

  @Test
  void reset_makes_progress_zero_keeps_the_events_and_later_events_count_again() {
    var learner = new LearnerClient(server);
    String readId = newId();
    learner.event(readId, "section.read", "three-links", null);
    learner.event(newId(), "ladder.reveal", "L3", null);

    HttpResponse<String> reset = learner.delete("/api/progress/exactly-once");

    assertEquals(200, reset.statusCode(), reset.body());
    JsonNode after = json(reset.body());
    for (String tab : List.of("gist", "maps", "qa", "sandbox")) assertEquals(0, after.at("/tabs/" + tab + "/done").asInt(), tab);
    assertTrue(after.get("last").isNull());
    assertEquals(after, learner.progress());
    // a retry of an event from before the reset is still the same event, not new progress
    assertEquals(200, learner.event(readId, "section.read", "three-links", null).statusCode());
    assertEquals(0, learner.progress().at("/tabs/gist/done").asInt());
    learner.event(newId(), "section.read", "guarantees", null);
    assertEquals(List.of("guarantees"), names(learner.progress().get("sectionsRead")));
    // the export still holds everything, including the reset marker
    JsonNode export = json(learner.get("/api/me/export").body());
    assertEquals(List.of("section.read", "ladder.reveal", "progress.reset", "section.read"),
        names(export.get("events"), "type"));
  }

  @Test
  void progress_of_an_unknown_lesson_is_404() {
    var learner = new LearnerClient(server);
    HttpResponse<String> get = learner.get("/api/progress/nope");
    assertEquals(404, get.statusCode());
    assertEquals(BundledLessons.unknown("nope"), json(get.body()).get("error").asText());
    assertEquals(404, learner.delete("/api/progress/nope").statusCode());
  }

  @Test
  void a_stranger_has_empty_progress_and_no_cookie() {
    var learner = new LearnerClient(server);
    HttpResponse<String> response = learner.get("/api/progress/exactly-once");
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().allValues("Set-Cookie").isEmpty());
    assertFalse(json(response.body()).get("tabs").isEmpty());
    assertNotNull(json(response.body()).at("/tabs/sandbox/total"));
  }

  private static void assertNothingMoreStored(LearnerClient learner) {
    JsonNode export = json(learner.get("/api/me/export").body());
    assertEquals(1, export.get("events").size(), export.toString());
    assertEquals("guarantees", export.at("/events/0/item").asText());
  }

  static List<String> names(JsonNode array) {
    var names = new ArrayList<String>();
    array.forEach(n -> names.add(n.asText()));
    return names;
  }

  static List<String> names(JsonNode array, String field) {
    var names = new ArrayList<String>();
    array.forEach(n -> names.add(n.get(field).asText()));
    return names;
  }
}
