package lab.exactlyonce.share;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.CookieClient;
import lab.exactlyonce.Race;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.bench.LoopbackClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Short share links through HTTP: what a learner who shares code, and one who opens the link, sees. */
class ShareHttpTest extends ServerTest {
  private static final String CODE = "public class Main { public static void main(String[] a) { System.out.println(1); } }";

  /** Every test here shares from 127.0.0.1; the limit itself is tested on a server of its own. */
  @Override
  protected TestServer startServer() {
    return TestServer.start(TestConfig.defaults().withShare(new ShareSettings(1000)));
  }

  private JsonNode share(String body) throws Exception {
    HttpResponse<String> res = server.postJson("/api/shares", body);
    assertEquals(200, res.statusCode(), res.body());
    return JSON.readTree(res.body());
  }

  private static String body(String source, String snippet) throws Exception {
    return JSON.writeValueAsString(snippet == null ? Map.of("source", source) : Map.of("source", source, "snippet", snippet));
  }

  @Test
  void a_shared_source_gets_a_short_link_that_opens_the_snippets_editor_on_its_lesson_page() throws Exception {
    JsonNode made = share(body(CODE, "sink-demo"));
    String id = made.get("id").asText();
    assertTrue(id.matches("[A-Za-z0-9_-]{12}"), id);
    assertEquals("/s/" + id, made.get("url").asText());

    HttpResponse<String> opened = server.get("/s/" + id);
    assertEquals(303, opened.statusCode(), opened.body());
    assertEquals("/lessons/exactly-once#sandbox/sink-demo?share=" + id, opened.headers().firstValue("Location").orElseThrow());

    HttpResponse<String> stored = server.get("/api/shares/" + id);
    assertEquals(200, stored.statusCode(), stored.body());
    assertEquals(JSON.readTree(JSON.writeValueAsString(Map.of("id", id, "snippet", "sink-demo", "source", CODE,
        "url", "/s/" + id, "knobs", Map.of()))), JSON.readTree(stored.body()));
  }

  static Stream<Arguments> sharedKnobs() {
    String edited = "static final int CHECKPOINT_AFTER = 1; static final int CRASH_AFTER = 3;\n"
        + "static final boolean CRASH_BEFORE_COMPLETE = false; static final boolean CRASH_BEFORE_COMMIT = true;";
    String all = "{\"CRASH_AFTER\": 3, \"CHECKPOINT_AFTER\": 1, \"CRASH_BEFORE_COMPLETE\": false, "
        + "\"CRASH_BEFORE_COMMIT\": true}";
    return Stream.of(
        arguments("the review's edit", "sink-demo", edited, all),
        arguments("no snippet named: the first demo's knobs", null, edited, all),
        arguments("a value outside the knob's range is the code's", "sink-demo", "static final int CRASH_AFTER = 9;",
            "{\"CRASH_AFTER\": 9}"),
        arguments("a declaration of another type sets no knob", "sink-demo",
            "static final long CRASH_AFTER = 3L; static final boolean CHECKPOINT_AFTER = true;", "{}"),
        arguments("a long knob", "txn-dedupe-demo", "static final long TTL_SECONDS = 90L;", "{\"TTL_SECONDS\": 90}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sharedKnobs")
  void a_shared_program_opens_with_the_knob_values_its_code_sets(String desc, String snippet, String source,
                                                                  String knobs) throws Exception {
    String id = share(body(source, snippet)).get("id").asText();
    JsonNode opened = JSON.readTree(server.get("/api/shares/" + id).body());
    assertEquals(source, opened.get("source").asText());
    assertEquals(JSON.readTree(knobs), opened.get("knobs"));
  }

  @Test
  void every_share_gets_a_random_link_of_its_own_even_for_the_same_code() throws Exception {
    String first = share(body(CODE, "sink-demo")).get("id").asText();
    String second = share(body(CODE, "sink-demo")).get("id").asText();
    assertNotEquals(first, second, "an id says nothing about the code, so nobody can test whether a program was shared");
    for (String id : List.of(first, second)) {
      assertEquals(CODE, JSON.readTree(server.get("/api/shares/" + id).body()).get("source").asText());
    }
  }

  @Test
  void a_class_sharing_the_same_code_at_once_each_get_a_working_link() throws Exception {
    String source = "class Together { /* the starter, unchanged */ }";
    String code = body(source, "txn-dedupe-demo");
    List<HttpResponse<String>> answers = Race.run(8, i -> server.postJson("/api/shares", code));
    Set<String> ids = new HashSet<>();
    for (HttpResponse<String> answer : answers) {
      assertEquals(200, answer.statusCode(), answer.body());
      ids.add(JSON.readTree(answer.body()).get("id").asText());
    }
    assertEquals(8, ids.size(), "eight shares, eight links: " + ids);
    for (String id : ids) assertEquals(source, JSON.readTree(server.get("/api/shares/" + id).body()).get("source").asText());
  }

  @Test
  void a_share_without_a_snippet_opens_in_the_first_demos_editor() throws Exception {
    String id = share(body("class Scratch {}", null)).get("id").asText();
    assertEquals("/lessons/exactly-once#sandbox/sink-demo?share=" + id,
        server.get("/s/" + id).headers().firstValue("Location").orElseThrow());
    assertTrue(JSON.readTree(server.get("/api/shares/" + id).body()).get("snippet").isNull());
  }

  @Test
  void sharing_stores_nothing_about_who_shared() {
    HttpResponse<String> res = server.postJson("/api/shares", "{\"source\": \"class Anonymous {}\"}");
    assertEquals(200, res.statusCode(), res.body());
    assertTrue(res.headers().allValues("Set-Cookie").isEmpty(), "no learner cookie is made: " + res.headers().map());
  }

  @Test
  void share_ids_follow_no_order() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) ids.add(share(body("class A { int n = " + i + "; }", null)).get("id").asText());
    Set<Character> firsts = new HashSet<>();
    for (String id : ids) firsts.add(id.charAt(0));
    // Consecutive shares land all over the id space: a counter or a timestamp would share a prefix.
    assertTrue(firsts.size() >= 8, "ids of 20 consecutive shares start with only " + firsts + ": " + ids);
    assertEquals(20, new HashSet<>(ids).size(), "every source has its own id: " + ids);
  }

  /** A JSON request refused with {@code status} and exactly {@code message}. */
  static Arguments refused(String desc, String contentType, String body, int status, String message) {
    return arguments(desc, contentType, body, status, message);
  }

  static Stream<Arguments> refusals() {
    String fields = "; the fields are 'source' and 'snippet'";
    return Stream.of(
        refused("not JSON", "application/json", "class A {}", 400, "the request body is not valid JSON: Unrecognized "
            + "token 'class': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')"),
        refused("a JSON array", "application/json", "[\"class A {}\"]", 400, "the request body must be a JSON object"),
        refused("no source", "application/json", "{\"snippet\": \"sink-demo\"}", 400, "'source' is required"),
        refused("a blank source", "application/json", "{\"source\": \" \\n\"}", 400,
            "'source' is blank: there is nothing to share"),
        refused("a numeric source", "application/json", "{\"source\": 42}", 400, "'source' must be a string, got 42"),
        refused("an unknown field", "application/json", "{\"source\": \"class A {}\", \"lang\": \"java\"}", 400,
            "unknown field 'lang'" + fields),
        refused("a learner id smuggled in", "application/json", "{\"source\": \"class A {}\", \"learner\": \"x\"}", 400,
            "unknown field 'learner'" + fields),
        refused("an unknown snippet", "application/json", "{\"source\": \"class A {}\", \"snippet\": \"../../etc\"}", 400,
            "no snippet '../../etc'; 'snippet' must be one of: sink-demo, txn-dedupe-demo, outbox-demo"),
        refused("a numeric snippet", "application/json", "{\"source\": \"class A {}\", \"snippet\": 7}", 400,
            "'snippet' must be a string, got 7"),
        refused("a source over 64 KB", "application/json", "{\"source\": \"" + "x".repeat(64 * 1024 + 1) + "\"}", 413,
            "the source is 65537 bytes; the limit is 65536 bytes"),
        refused("a body far over the limit", "application/json", "{\"source\": \"" + "x".repeat(300_000) + "\"}", 413,
            "the request body is 300014 bytes; the limit is 263168 bytes"),
        refused("a form body", "application/x-www-form-urlencoded", "source=class+A", 415, "the request body must be "
            + "JSON sent with 'Content-Type: application/json', got 'application/x-www-form-urlencoded'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void a_bad_share_request_is_refused_with_a_message_naming_the_culprit(String desc, String contentType, String body,
                                                                         int status, String message) throws Exception {
    HttpResponse<String> res = server.post("/api/shares", contentType, body);
    assertEquals(status, res.statusCode(), res.body());
    assertEquals(message, JSON.readTree(res.body()).get("error").asText());
  }

  @Test
  void a_share_from_another_site_is_refused_and_stores_nothing() throws Exception {
    String source = "class CrossSite {}";
    HttpResponse<String> res = server.sendAsIs(HttpRequest.newBuilder(URI.create(server.url("/api/shares")))
        .header("Content-Type", "application/json").header("Origin", "https://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString(body(source, null))).build());
    assertEquals(403, res.statusCode(), res.body());
    assertTrue(res.body().contains("cross-site request refused"), res.body());
    // That it stored nothing: the storage budget's test counts only what same-site shares stored.
  }

  @Test
  void links_together_hold_at_most_the_storage_budget_and_a_refusal_says_so() throws Exception {
    Config config = TestConfig.defaults();
    ShareSettings oneMb = new ShareSettings(1000).withStorage(1024 * 1024, Duration.ofDays(90));
    try (TestServer small = TestServer.start(config.withShare(oneMb))) {
      String fifty = "class Big { String s = \"" + "x".repeat(50 * 1024 - 30) + "\"; }";
      String code = body(fifty, null);
      for (int i = 0; i < 25; i++) {
        HttpResponse<String> crossSite = small.sendAsIs(HttpRequest.newBuilder(URI.create(small.url("/api/shares")))
            .header("Content-Type", "application/json").header("Origin", "https://evil.example")
            .POST(HttpRequest.BodyPublishers.ofString(code)).build());
        assertEquals(403, crossSite.statusCode(), crossSite.body());
      }
      List<String> kept = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> res = small.postJson("/api/shares", code);
        assertEquals(200, res.statusCode(), "share " + (i + 1) + " of 20 fits in 1 MB (refused requests stored nothing): " + res.body());
        kept.add(JSON.readTree(res.body()).get("id").asText());
      }
      HttpResponse<String> full = small.postJson("/api/shares", code);
      assertEquals(429, full.statusCode(), full.body());
      long wait = Long.parseLong(full.headers().firstValue("Retry-After").orElseThrow());
      assertEquals("this server's share links are full (they may hold 1 MB of code, --share-storage-mb; a link nobody "
              + "opens for 90 days is removed): use the long link, which holds the code itself, or try again in " + wait + " s",
          JSON.readTree(full.body()).get("error").asText());
      assertTrue(wait > Duration.ofDays(89).toSeconds(), "room comes when the first link expires: " + wait);
      for (String id : kept) assertEquals(200, small.get("/api/shares/" + id).statusCode(), "no stored link was given up");

      TestClock.of(config).advance(Duration.ofSeconds(wait));
      assertEquals(200, small.postJson("/api/shares", code).statusCode(), "the links nobody opened expired: room again");
    }
  }

  @Test
  void a_link_nobody_opens_for_the_expiry_time_is_gone_and_one_that_is_opened_is_kept() throws Exception {
    Config config = TestConfig.defaults();
    try (TestServer server = TestServer.start(config.withShare(new ShareSettings(1000).withStorage(1024 * 1024, Duration.ofDays(30))))) {
      String opened = JSON.readTree(server.postJson("/api/shares", body("class Opened {}", null)).body()).get("id").asText();
      String forgotten = JSON.readTree(server.postJson("/api/shares", body("class Forgotten {}", null)).body()).get("id").asText();
      TestClock clock = TestClock.of(config);
      clock.advance(Duration.ofDays(20));
      assertEquals(303, server.get("/s/" + opened).statusCode());
      clock.advance(Duration.ofDays(11));
      assertEquals(200, server.get("/api/shares/" + opened).statusCode(), "opened 11 days ago");
      HttpResponse<String> gone = server.get("/api/shares/" + forgotten);
      assertEquals(404, gone.statusCode(), "nobody opened it for 31 days: " + gone.body());
      assertTrue(gone.body().contains("a link nobody opens for 30 days is removed"), gone.body());
    }
  }

  static Stream<Arguments> unknownLinks() {
    return Stream.of(
        arguments("an id never made", "AAAAAAAAAAAA", "no share link 'AAAAAAAAAAAA': check that the link is complete"),
        arguments("a cut-off id", "AbC", "no share link at this address"),
        arguments("markup for an id", "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "no share link at this address"),
        arguments("a long id", "A".repeat(2000), "no share link at this address"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unknownLinks")
  void an_unknown_link_is_a_404_page_that_says_so(String desc, String id, String message) throws Exception {
    HttpResponse<String> page = server.get("/s/" + id);
    assertEquals(404, page.statusCode(), page.body());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page.headers().map().toString());
    // The page shows the message as a sentence; the API gives the fragment.
    assertTrue(page.body().replace("&#x27;", "'").contains("N" + message.substring(1)), page.body());
    assertFalse(page.body().contains("<script>alert"), "what the address holds is never put on the page as markup");
    HttpResponse<String> api = server.get("/api/shares/" + id);
    assertEquals(404, api.statusCode(), api.body());
    assertTrue(JSON.readTree(api.body()).get("error").asText().startsWith(message), api.body());
  }

  @Test
  void one_address_sharing_past_its_limit_gets_429_with_retry_after_while_another_address_still_shares() throws Exception {
    Config config = TestConfig.defaults();
    try (TestServer limited = TestServer.start(config.withShare(new ShareSettings(3)))) {
      for (int i = 0; i < 3; i++) {
        assertEquals(200, limited.postJson("/api/shares", body("class N" + i + " {}", null)).statusCode());
      }
      HttpResponse<String> refused = limited.postJson("/api/shares", body("class Four {}", null));
      assertEquals(429, refused.statusCode(), refused.body());
      long wait = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
      assertTrue(wait >= 1 && wait <= 20, "a token comes back within 20 s at 3 a minute: " + wait);
      assertEquals("too many share links from your network without a learner cookie: at most 3 a minute (allow this "
          + "site's cookies to get a budget of your own); try again in " + wait + " s", JSON.readTree(refused.body()).get("error").asText());
      try (var classmate = new LoopbackClient("127.0.0.2", "127.0.0.1", limited.app().port())) {
        LoopbackClient.Response other = classmate.post("/api/shares", "application/json", body("class Other {}", null),
            Map.of("Origin", limited.origin()));
        assertEquals(200, other.status(), other.body());
      }
      TestClock.of(config).advance(Duration.ofSeconds(wait));
      assertEquals(200, limited.postJson("/api/shares", body("class Five {}", null)).statusCode(),
          "after the wait Retry-After named, the address shares again");
    }
  }

  @Test
  void one_learner_flooding_is_throttled_alone_while_classmates_on_the_same_address_share() throws Exception {
    CookieClient flooder = learner("Flood");
    CookieClient classmate = learner("Kim");
    int made = 0;
    HttpResponse<String> res;
    while ((res = flooder.post("/api/shares", body("class F" + made + " {}", null))).statusCode() == 200) made++;
    assertEquals(ShareRoutes.PER_LEARNER_PER_MINUTE, made, "a learner's budget a minute");
    assertEquals(429, res.statusCode(), res.body());
    assertTrue(JSON.readTree(res.body()).get("error").asText().startsWith(
        "too many share links from you: at most " + ShareRoutes.PER_LEARNER_PER_MINUTE + " a minute; try again in "), res.body());
    assertEquals(200, classmate.post("/api/shares", body("class Kim {}", null)).statusCode(), "same address, own budget");
    assertEquals(200, server.postJson("/api/shares", body("class NoCookie {}", null)).statusCode(), "nor the cookie-less");
  }

  private CookieClient learner(String name) {
    CookieClient learner = new CookieClient(server);
    assertEquals(200, learner.put("/api/me", "{\"displayName\":\"" + name + "\"}").statusCode());
    return learner;
  }

  @Test
  void the_limit_is_a_flag_and_an_environment_variable_and_nonsense_is_refused() {
    assertEquals(300, Config.from(new String[0], Map.of()).share().sharesPerMinutePerAddress());
    assertEquals(ShareSettings.defaults().withStorage(5L * 1024 * 1024, Duration.ofDays(7)),
        Config.from(new String[] {"--share-storage-mb", "5"}, Map.of("SHARE_EXPIRY_DAYS", "7")).share());
    assertEquals(500, Config.from(new String[] {"--share-limit-per-address", "500"}, Map.of())
        .share().sharesPerMinutePerAddress());
    assertEquals(7, Config.from(new String[0], Map.of("SHARE_LIMIT_PER_ADDRESS", "7")).share().sharesPerMinutePerAddress());
    assertEquals("--share-limit-per-address must be at least 1, got 0", refusal("0"));
    assertEquals("--share-limit-per-address must be a number, got 'lots'", refusal("lots"));
  }

  private static String refusal(String value) {
    try {
      Config.from(new String[] {"--share-limit-per-address", value}, Map.of());
      return "accepted";
    } catch (Config.ConfigException e) {
      return e.getMessage();
    }
  }
}
