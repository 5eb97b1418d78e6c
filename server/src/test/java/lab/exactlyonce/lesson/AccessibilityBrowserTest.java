package lab.exactlyonce.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * axe-core (vendored, {@code vendor/axe.min.js}) on the home page and on every tab of every lesson, in the light and
 * the dark theme: no serious or critical violations. Written against whatever the page renders, so the maps and
 * sandbox tabs are covered as those features land. Runs over the bundled lessons and the all-blocks fixture.
 */
class AccessibilityBrowserTest extends BrowserTest {
  private TestServer fixture;

  @BeforeAll
  void startFixture() {
    fixture = TestServer.start(TestConfig.defaults().withLessonsDir(LessonValidationTest.resource("ui-lessons")));
  }

  @AfterAll
  void stopFixture() {
    if (fixture != null) fixture.close();
  }

  /** The bundled lessons' app and the all-blocks fixture's, each in the light and the dark theme: one test each. */
  static Stream<Arguments> appsAndSchemes() {
    return Stream.of(true, false).flatMap(bundled -> Stream.of(ColorScheme.LIGHT, ColorScheme.DARK)
        .map(scheme -> arguments(bundled ? "bundled lessons" : "all-blocks fixture", scheme)));
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("appsAndSchemes")
  void every_tab_of_every_lesson_passes(String lessons, ColorScheme scheme) throws IOException {
    TestServer app = lessons.equals("bundled lessons") ? server : fixture;
    List<String> problems = new ArrayList<>();
    int scans = 0;
    List<String> lessonsScanned = new ArrayList<>();
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(scheme));
    page.navigate(app.url("/"));
    problems.addAll(scan("home (" + scheme + ")"));
    scans++;
    for (JsonNode lesson : JSON.readTree(app.get("/api/lessons").body())) {
      lessonsScanned.add(lesson.get("id").asText());
      page.navigate(app.url(lesson.get("page").asText()));
      Locator tabs = page.locator("[role=tab]");
      assertThat(tabs).hasCount(4);
      for (int i = 0; i < tabs.count(); i++) {
        tabs.nth(i).click();
        // Open every answer too, so what is behind <details> is checked as well.
        page.evaluate("document.querySelectorAll('[role=tabpanel]:not([hidden]) details').forEach(d => d.open = true)");
        problems.addAll(scan(lesson.get("id").asText() + " " + tabs.nth(i).textContent() + " tab (" + scheme + ")"));
        scans++;
      }
    }
    assertTrue(scans >= 5, "scanned " + scans + " views");
    if (app == server) assertEquals(BundledLessons.ids(), lessonsScanned, "every bundled lesson is scanned");
    assertEquals(List.of(), problems, String.join("\n", problems));
  }

  @Test
  void the_scan_catches_a_known_violation() {
    page.navigate(server.url("/"));
    page.evaluate("() => { const b = document.createElement('button'); document.querySelector('main').append(b); }");
    List<String> found = scan("home");
    assertEquals(1, found.size(), String.join("\n", found));
    assertTrue(found.get(0).startsWith("home: critical button-name"), found.get(0));
  }

  private List<String> scan(String where) {
    return AxeScan.seriousViolations(page, where);
  }
}
