package lab.exactlyonce.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.web.AssetVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The lesson feature over HTTP, against the bundled lessons: pages, JSON, static assets and 404s. */
class LessonHttpTest extends ServerTest {

  static Stream<Arguments> routes() {
    return Stream.concat(BundledLessons.ids().stream().flatMap(LessonHttpTest::everyLesson), Stream.of(
        arguments("home page lists the lesson", "GET", "/", 200, "text/html", "<a href=\"/lessons/exactly-once\">"),
        arguments("home page links the quiz across lessons", "GET", "/", 200, "text/html", "<a href=\"/quiz\">Take the quiz</a>"),
        arguments("the quiz across lessons", "GET", "/quiz", 200, "text/html", "<h1>Quiz: All lessons</h1>"),
        arguments("the exactly-once lesson links the outbox lesson", "GET", "/lessons/exactly-once", 200, "text/html",
            "href=\"/lessons/outbox\">an outbox</a>"),
        arguments("home page leads students to a class", "GET", "/", 200, "text/html", "<a href=\"/join\">Join a class</a>"),
        arguments("home page leads instructors to teach", "GET", "/", 200, "text/html", "<a href=\"/teach\">Teach a class</a>"),
        arguments("home page speaks to interview candidates", "GET", "/", 200, "text/html", "<h3>Interview candidates</h3>"),
        arguments("lesson page leads to a class", "GET", "/lessons/exactly-once", 200, "text/html",
            "<a href=\"/join\">Join a class</a>"),
        arguments("lesson page has the four panels", "GET", "/lessons/exactly-once", 200, "text/html", "<section id=\"gist\""),
        arguments("lesson page links the tabs", "GET", "/lessons/exactly-once", 200, "text/html", "<a href=\"#sandbox\" id=\"tab-sandbox\">Sandbox</a>"),
        arguments("health check", "GET", "/healthz", 200, "application/json", "{\"status\":\"ok\",\"sandboxConfinement\":"),
        arguments("lesson list as JSON", "GET", "/api/lessons", 200, "application/json",
            "\"id\":\"exactly-once\""),
        arguments("lesson list gives the page", "GET", "/api/lessons", 200, "application/json",
            "\"page\":\"/lessons/exactly-once\",\"data\":\"/api/lessons/exactly-once\""),
        arguments("one lesson as JSON", "GET", "/api/lessons/exactly-once", 200, "application/json", "\"sections\":[{\"id\":"),
        arguments("unknown lesson as JSON", "GET", "/api/lessons/nope", 404, "application/json",
            "{\"error\":\"no lesson 'nope'; lessons here: " + String.join(", ", BundledLessons.ids()) + "\"}"),
        arguments("unknown lesson page", "GET", "/lessons/nope", 404, "text/html",
            "<p>No lesson &#x27;nope&#x27;; lessons here: " + String.join(", ", BundledLessons.ids()) + ".</p>"),
        arguments("unknown page", "GET", "/no/such/page", 404, "text/html",
            "<h1>404 Not Found</h1><p>No page at /no/such/page.</p>"),
        arguments("unknown API path", "GET", "/api/nothing", 404, "application/json",
            "{\"error\":\"no API endpoint GET /api/nothing\"}"),
        arguments("base stylesheet", "GET", "/assets/css/app.css", 200, "text/css", "--accent"),
        arguments("tabs module", "GET", "/assets/js/tabs.js", 200, "javascript", "lesson:route"),
        arguments("voice module", "GET", "/assets/js/voice.js", 200, "javascript", "speechSynthesis"),
        arguments("Q&A module", "GET", "/assets/js/qa.js", 200, "javascript", "localStorage"),
        arguments("missing asset", "GET", "/assets/js/nope.js", 404, "text/html", "No page at /assets/js/nope.js."),
        arguments("lessons cannot be posted", "POST", "/api/lessons", 404, "application/json",
            "{\"error\":\"no API endpoint POST /api/lessons\"}")
    ));
  }

  /** What the home page, the lesson list and each lesson's own page and quiz give for every lesson in the catalog. */
  private static Stream<Arguments> everyLesson(String id) {
    String page = "/lessons/" + id;
    return Stream.of(
        arguments(id + ": the home page lists it", "GET", "/", 200, "text/html", "<h3><a href=\"" + page + "\">"),
        arguments(id + ": the home page links its quiz", "GET", "/", 200, "text/html", "<a href=\"" + page + "/quiz\">"),
        arguments(id + ": its page opens", "GET", page, 200, "text/html", "<div class=\"lesson\" data-lesson=\"" + id + "\""),
        arguments(id + ": its page links its quiz", "GET", page, 200, "text/html", "<a href=\"" + page + "/quiz\" id=\"quiz-link\">"),
        arguments(id + ": its quiz opens", "GET", page + "/quiz", 200, "text/html", "<form method=\"post\" action=\"" + page + "/quiz\""),
        arguments(id + ": its quiz leads to the quiz across lessons", "GET", page + "/quiz", 200, "text/html",
            "<a href=\"/quiz\">Take a quiz across all"),
        arguments(id + ": the quiz across lessons links its quiz", "GET", "/quiz", 200, "text/html",
            "<a href=\"" + page + "/quiz\">Quiz: "),
        arguments(id + ": listed as JSON", "GET", "/api/lessons", 200, "application/json",
            "\"page\":\"" + page + "\",\"data\":\"/api/lessons/" + id + "\""),
        arguments(id + ": as JSON", "GET", "/api/lessons/" + id, 200, "application/json", "{\"id\":\"" + id + "\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("routes")
  void answers(String desc, String method, String path, int status, String contentType, String fragment) {
    HttpResponse<String> res = server.send(HttpRequest.newBuilder(URI.create(server.url(path)))
        .method(method, HttpRequest.BodyPublishers.noBody()));
    assertEquals(status, res.statusCode(), desc + ": " + res.body());
    assertTrue(res.headers().firstValue("Content-Type").orElse("").contains(contentType),
        desc + ": content type " + res.headers().firstValue("Content-Type"));
    assertTrue(res.body().contains(fragment), desc + ": expected " + fragment + " in\n" + res.body());
  }

  @Test
  void fingerprinted_assets_are_cached_for_a_year_and_the_page_and_plain_asset_urls_are_revalidated() {
    var versioned = server.get(AssetVersion.url("js/tabs.js"));
    assertEquals(200, versioned.statusCode());
    assertEquals("public, max-age=31536000, immutable", versioned.headers().firstValue("Cache-Control").orElse(""));
    var plain = server.get("/assets/js/tabs.js");
    assertEquals(200, plain.statusCode());
    assertFalse(plain.headers().firstValue("Cache-Control").orElse("").contains("immutable"), plain.headers().toString());
    var page = server.get("/lessons/exactly-once");
    assertFalse(page.headers().firstValue("Cache-Control").orElse("").contains("max-age=31536000"));
    assertTrue(AssetVersion.CURRENT.matches("[0-9a-f]{12}"), AssetVersion.CURRENT);
    assertEquals(404, server.get("/assets/v/000000000000/js/tabs.js").statusCode(), "another build's fingerprint");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("lessonIds")
  void lesson_page_has_one_title_one_h1_a_skip_link_and_every_module_that_exists(String lesson) {
    String page = server.get("/lessons/" + lesson).body();
    assertTrue(page.contains("<title>"), page);
    assertEquals(1, count(page, "<h1"), "one h1");
    assertTrue(page.contains("<a href=\"#main\" class=\"skip-link\">Skip to content</a>"));
    String assets = "/assets/v/" + AssetVersion.CURRENT;
    assertTrue(page.contains("<script type=\"module\" src=\"" + assets + "/js/tabs.js\"></script>"), page);
    assertTrue(page.contains("<script type=\"module\" src=\"" + assets + "/js/qa.js\"></script>"));
    // every module the page loads exists (the page would fail quietly on a 404)
    var modules = Pattern.compile("src=\"(" + assets + "/js/[^\"]+)\"").matcher(page);
    while (modules.find()) assertEquals(200, server.get(modules.group(1)).statusCode(), modules.group(1));
    for (String panel : new String[] {"gist", "maps", "qa", "sandbox"}) {
      assertTrue(page.contains("<section id=\"" + panel + "\" class=\"tab-panel\" aria-labelledby=\"" + panel + "-heading\"><h2"), panel);
    }
    assertTrue(page.indexOf("id=\"gist\"") < page.indexOf("id=\"maps\"") && page.indexOf("id=\"maps\"") < page.indexOf("id=\"qa\"")
        && page.indexOf("id=\"qa\"") < page.indexOf("id=\"sandbox\""), "panels in order");
  }

  /** Elements that make the browser fetch what they name: a page whose every one points here works offline. */
  private static final Pattern LOADS = Pattern.compile(
      "<(?:script|link|img|iframe|source|track|audio|video|embed|object|input)\\b[^>]*?"
          + "\\s(?:src|href|data|srcset|poster)=\"([^\"]*)\"");

  @ParameterizedTest(name = "{0}")
  @MethodSource("lessonIds")
  void lesson_page_loads_nothing_from_another_site(String lesson) {
    String page = server.get("/lessons/" + lesson).body();
    List<String> elsewhere = new ArrayList<>();
    int loads = 0;
    for (var found = LOADS.matcher(page); found.find(); loads++) {
      String target = found.group(1);
      if (!(target.startsWith("/") && !target.startsWith("//")) && !target.startsWith("data:")) elsewhere.add(target);
    }
    assertTrue(loads >= 3, "found " + loads + " scripts and stylesheets");
    assertEquals(List.of(), elsewhere, lesson);
    assertFalse(page.contains("url(http") || page.contains("url(//"), "a style loads from another site");
  }

  @Test
  void the_lesson_json_has_stable_field_names_and_every_block_names_its_kind() throws Exception {
    var json = JSON.readTree(server.get("/api/lessons/exactly-once").body());
    assertEquals(List.of("id", "title", "summary", "topics", "keyIdeas", "sections", "maps", "flows"), names(json));
    assertEquals(List.of("id", "tab", "title", "topic", "intro", "blocks"), names(json.get("sections").get(0)));
    Set<String> kinds = new TreeSet<>();
    for (var section : json.get("sections")) {
      for (var block : section.get("blocks")) {
        assertTrue(block.hasNonNull("kind") && block.hasNonNull("id"), block.toString());
        kinds.add(block.get("kind").asText());
      }
    }
    assertTrue(kinds.containsAll(List.of("text", "table", "questions", "scenario", "snippet")), kinds.toString());
    var listing = JSON.readTree(server.get("/api/lessons").body()).get(0);
    assertEquals(List.of("id", "title", "summary", "page", "data"), names(listing));
  }

  static Stream<String> lessonIds() {
    return BundledLessons.ids().stream();
  }

  private static List<String> names(JsonNode node) {
    var out = new ArrayList<String>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void a_broken_request_never_shows_a_stack_trace() {
    String body = server.get("/api/lessons/%20").body();
    assertFalse(body.contains("Exception"), body);
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
    return n;
  }
}
