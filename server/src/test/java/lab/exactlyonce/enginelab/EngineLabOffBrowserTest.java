package lab.exactlyonce.enginelab;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.BoundingBox;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An app started without the engine lab: the sink demo says how to turn it on, on a phone and on a desktop. With the
 * lab's answers stood in for (the real engines are not started here), its results fit a phone.
 */
class EngineLabOffBrowserTest extends BrowserTest {

  @OwnContexts
  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844, true", "1280, 800, false"})
  void the_sink_demo_says_how_to_turn_the_engine_lab_on(int width, int height, boolean mobile) {
    reopen(new Browser.NewContextOptions().setViewportSize(width, height).setIsMobile(mobile));
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator real = page.locator("[id='sandbox/sink-demo'] [data-real-run]");
    assertThat(real.locator("[data-real-run-off]")).hasText("The engine lab is off on this server: build it with mvn"
        + " package and restart the app without --engine-lab off, or with --engine-lab on.");
    assertThat(real.locator("[data-real-run-off]")).isVisible();
    assertThat(real.locator("[data-real-run-button]")).hasCount(0);
  }

  /** The lab's catalog, as an app with the lab on sends it: one scenario, compared with the lesson's simulation. */
  private static final String CATALOG = "{\"enabled\":true,\"engines\":\"warm\",\"typicalRunSeconds\":3,"
      + "\"scenarios\":[{\"id\":\"seed-crash\",\"title\":\"The seed's crash\",\"summary\":\"A crash before the"
      + " commit\",\"simulation\":\"sink-demo\",\"knobs\":[]}]}";

  /** A finished real run whose readers disagree with the simulation, so the widest verdicts are drawn. */
  private static final String RUN = "{\"id\":\"0123456789abcdef\",\"status\":\"done\",\"result\":{\"readers\":{"
      + "\"read_committed\":{\"topic\":\"billing-two-phase\",\"records\":4,\"sum\":100,\"values\":[\"o1\",\"o2\","
      + "\"o3\",\"o4\"]},"
      + "\"read_uncommitted\":{\"topic\":\"billing-two-phase\",\"records\":9,\"sum\":250,\"values\":[\"o1\",\"o2\","
      + "\"o3\",\"o4\",\"o3\",\"o4\",\"o5\",\"o5\",\"o5\"]},"
      + "\"at_least_once\":{\"topic\":\"billing-at-least-once\",\"records\":7,\"sum\":220,\"values\":[\"o1\",\"o2\","
      + "\"o3\",\"o4\",\"o3\",\"o4\",\"o5\"]}},"
      + "\"errors\":[{\"class\":\"org.apache.kafka.common.errors.InvalidProducerEpochException\",\"message\":"
      + "\"Producer attempted to produce with an old epoch.\"}],\"events\":[]}}";

  @OwnContexts
  @Test
  void on_a_phone_the_real_run_results_show_every_column_without_scrolling_sideways() {
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
    page.route("**/api/lab/scenarios", route -> json(route, CATALOG));
    page.route("**/api/lab/real-runs", route -> json(route, RUN));
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator real = page.locator("[id='sandbox/sink-demo'] [data-real-run]");
    real.locator("[data-real-run-button='seed-crash']").click();
    Locator rows = real.locator("[data-real-run-results] tbody tr");
    assertThat(rows).hasCount(3);
    assertThat(real.locator("[data-real-run-results] td[data-verdict]").first())
        .hasText(Pattern.compile("agree|differ"));

    for (int width : new int[] {390, 320, 1920}) {
      page.setViewportSize(width, width == 320 ? 640 : width == 390 ? 844 : 1080);
      assertEquals(true, page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"),
          "the page scrolls sideways at " + width + " px");
      for (Locator cell : real.locator("[data-real-run-results] td").all()) {
        cell.scrollIntoViewIfNeeded();
        BoundingBox box = cell.boundingBox();
        assertTrue(box.x >= 0 && box.x + box.width <= width,
            "a cell fits " + width + " px: " + box.x + "+" + box.width);
      }
      if (width > 390) continue; // a wide screen shows the header row
      // Each figure says which column it belongs to, the table's header row being out of sight.
      assertEquals(List.of("\"Simulation\"", "\"Real engines\"", "\"Verdict\""), rows.first().locator("td")
          .evaluateAll("cells => cells.map(c => getComputedStyle(c, '::before').content)"));
    }
    assertEquals(List.of(), AxeScan.seriousViolations(page, "engine lab results on a phone"));
  }

  private static void json(Route route, String body) {
    route.fulfill(new Route.FulfillOptions().setStatus(200).setContentType("application/json").setBody(body));
  }
}
