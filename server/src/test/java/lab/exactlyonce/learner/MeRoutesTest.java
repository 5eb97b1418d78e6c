package lab.exactlyonce.learner;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.ServerTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/me}: display name, export and forget-me. */
class MeRoutesTest extends ServerTest {

  /** A browser with one learner cookie. */
  private final class Browser extends CookieClient {
    Browser() {
      super(MeRoutesTest.this.server);
    }

    String cookie() {
      return cookie(Learners.COOKIE);
    }

    HttpResponse<String> send(String method, String path, String json) {
      var request = request(path);
      if (json != null) request.header("Content-Type", "application/json");
      request.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
      return send(request);
    }

    HttpResponse<String> event(String type, String item, String data) {
      return send("POST", "/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"" + type
          + "\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\"" + (data == null ? "" : ",\"data\":" + data) + "}");
    }
  }

  @Test
  void a_display_name_is_set_trimmed_shown_and_cleared() throws Exception {
    var browser = new Browser();
    assertEquals("{\"known\":false,\"displayName\":null}", browser.send("GET", "/api/me", null).body());

    HttpResponse<String> set = browser.send("PUT", "/api/me", "{\"displayName\":\"  Ada <script>  \"}");
    assertEquals(200, set.statusCode(), set.body());
    assertEquals("{\"displayName\":\"Ada <script>\"}", set.body());
    assertEquals("{\"known\":true,\"displayName\":\"Ada <script>\"}", browser.send("GET", "/api/me", null).body());

    browser.send("PUT", "/api/me", "{\"displayName\":\"\"}");
    assertEquals("{\"known\":true,\"displayName\":null}", browser.send("GET", "/api/me", null).body());
  }

  @Test
  void bad_display_names_are_refused_with_a_clear_message() throws Exception {
    var browser = new Browser();
    browser.send("PUT", "/api/me", "{\"displayName\":\"Grace\"}");
    String[][] cases = {
        {"{\"displayName\":\"" + "x".repeat(41) + "\"}", "'displayName' is 41 characters; the limit is 40"},
        {"{\"displayName\":42}", "'displayName' must be a string, got 42"},
        {"{\"displayName\":\"a\\u0007b\"}", "'displayName' must not contain control characters"},
        {"{}", "'displayName' is required"},
        {"{\"displayName\":\"A\",\"admin\":true}", "unknown field 'admin'; the only field is 'displayName'"},
    };
    for (String[] c : cases) {
      HttpResponse<String> response = browser.send("PUT", "/api/me", c[0]);
      assertEquals(400, response.statusCode(), c[0]);
      assertEquals(c[1], JSON.readTree(response.body()).get("error").asText());
    }
    assertEquals("{\"known\":true,\"displayName\":\"Grace\"}", browser.send("GET", "/api/me", null).body());
  }

  @Test
  void export_is_a_download_of_everything_about_the_learner_and_nobody_else() throws Exception {
    var ann = new Browser();
    var bob = new Browser();
    ann.send("PUT", "/api/me", "{\"displayName\":\"Ann\"}");
    ann.event("section.read", "three-links", null);
    ann.event("self.rating", "L1", "{\"rating\":2}");
    bob.event("map.node", "sink", null);

    HttpResponse<String> export = ann.send("GET", "/api/me/export", null);

    assertEquals(200, export.statusCode());
    assertEquals("attachment; filename=\"exactly-once-lab-my-data.json\"", export.headers().firstValue("Content-Disposition").orElseThrow());
    JsonNode body = JSON.readTree(export.body());
    assertEquals("Ann", body.at("/learner/displayName").asText());
    assertEquals(ann.cookie().substring(Learners.COOKIE.length() + 1, ann.cookie().indexOf('.')), body.at("/learner/id").asText());
    assertEquals(2, body.get("events").size());
    assertEquals("three-links", body.at("/events/0/item").asText());
    assertEquals(2, body.at("/events/1/data/rating").asInt());
    assertFalse(export.body().contains("\"sink\""), export.body());
  }

  @Test
  void forget_me_deletes_every_row_and_clears_the_cookie() throws Exception {
    var ann = new Browser();
    ann.send("PUT", "/api/me", "{\"displayName\":\"Ann\"}");
    ann.event("section.read", "three-links", null);
    String oldCookie = ann.cookie();

    HttpResponse<String> forget = ann.send("DELETE", "/api/me", null);

    assertEquals(200, forget.statusCode());
    assertEquals("{\"forgotten\":true}", forget.body());
    assertTrue(forget.headers().firstValue("Set-Cookie").orElseThrow().startsWith(Learners.COOKIE + "=;"));
    assertEquals(null, ann.cookie());
    // even with the old (still validly signed) cookie, nothing is left
    ann.setCookie(oldCookie);
    assertEquals("{\"known\":false,\"displayName\":null}", ann.send("GET", "/api/me", null).body());
    JsonNode export = JSON.readTree(ann.send("GET", "/api/me/export", null).body());
    assertEquals(0, export.get("events").size());
    assertTrue(export.at("/learner/displayName").isNull());
    assertEquals(0, JSON.readTree(ann.send("GET", "/api/progress/exactly-once", null).body()).at("/tabs/gist/done").asInt());
  }

  @Test
  void forgetting_a_stranger_is_harmless() {
    assertEquals("{\"forgotten\":false}", new Browser().send("DELETE", "/api/me", null).body());
  }

  @Test
  void changing_the_name_needs_json_and_this_sites_origin() throws Exception {
    var browser = new Browser();
    HttpResponse<String> form = server.send(HttpRequest.newBuilder(URI.create(server.url("/api/me")))
        .header("Content-Type", "application/x-www-form-urlencoded").PUT(HttpRequest.BodyPublishers.ofString("displayName=Eve")));
    assertEquals(415, form.statusCode());
    assertEquals("the request body must be JSON sent with 'Content-Type: application/json', got 'application/x-www-form-urlencoded'",
        JSON.readTree(form.body()).get("error").asText());
    HttpResponse<String> foreign = server.sendAsIs(HttpRequest.newBuilder(URI.create(server.url("/api/me")))
        .header("Content-Type", "application/json").header("Origin", "http://evil.example")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"displayName\":\"Eve\"}")).build());
    assertEquals(403, foreign.statusCode());
    HttpResponse<String> forget = server.sendAsIs(HttpRequest.newBuilder(URI.create(server.url("/api/me"))).DELETE().build());
    assertEquals(403, forget.statusCode());
    assertEquals("{\"known\":false,\"displayName\":null}", browser.send("GET", "/api/me", null).body());
  }
}
