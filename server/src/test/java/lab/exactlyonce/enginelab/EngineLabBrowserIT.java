package lab.exactlyonce.enginelab;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.assertions.LocatorAssertions;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TakesTurns;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Sandbox tab's "Run on real Kafka + Flink" with the engine lab on: the real readers' figures beside the
 * simulation's, agreeing; a moved knob changes both; fencing shows the real exception. Needs the engine lab's jar
 * ({@code mvn verify} runs this after package).
 */
@Tag("enginelab")
@TakesTurns("engine-lab")
class EngineLabBrowserIT extends BrowserTest {
  /** A warm run on a loaded host, with the simulation beside it. */
  private static final LocatorAssertions.HasTextOptions SLOW = new LocatorAssertions.HasTextOptions().setTimeout(60_000);

  /**
   * The app, with its engines warmed by one run through the API: the cold start (a broker and a Flink cluster) is
   * EngineLabIT's to time; here the page's figures are under test, and a cold start on a loaded host took longer than
   * a learner's run should ever be allowed to. The warm-up's knob values are ones no test here asks for, so every
   * test's run is a real one rather than the result the app keeps for the same settings.
   */
  @Override
  protected TestServer startServer() {
    TestServer app = TestServer.start(TestConfig.defaults().withEngineLab(EngineLabIT.settings()));
    try {
      EngineLabIT.awaitResult(app, EngineLabIT.submit(app,
          "{\"scenario\":\"seed-crash\",\"knobs\":{\"CRASH_AFTER\":1,\"CHECKPOINT_AFTER\":1}}"));
    } catch (Exception | AssertionError e) {
      app.close();
      throw new IllegalStateException("the engines did not warm up", e);
    }
    return app;
  }

  private Locator open(int width, int height, boolean mobile) {
    reopen(new Browser.NewContextOptions().setViewportSize(width, height).setIsMobile(mobile));
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator demo = page.locator("[id='sandbox/sink-demo']");
    assertThat(demo.locator(".CodeMirror")).isVisible();
    return demo.locator("[data-real-run]");
  }

  private static Locator cell(Locator real, String reader, String column) {
    return real.locator("[data-reader='" + reader + "'] [data-" + column + "]");
  }

  @Test
  void on_a_desktop_the_seeds_crash_on_the_real_engines_agrees_with_the_simulation_then_fencing_shows_the_real_error() {
    Locator real = open(1280, 800, false);
    assertThat(real.locator(".real-run-intro")).containsText(" s here.");
    real.locator("[data-real-run-button='seed-crash']").click();
    // The demo's own settings ran when the app warmed its engines up: their kept result comes without phases.
    assertThat(real.locator("[data-real-run-summary]")).hasText("The simulation and the real engines agree on every reader.", SLOW);
    assertThat(cell(real, "read_committed", "real")).hasText("5 records, sum 150: o1 o2 o3 o4 o5");
    assertThat(cell(real, "read_uncommitted", "real")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
    assertThat(cell(real, "at_least_once", "real")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
    assertThat(cell(real, "at_least_once", "simulated")).hasText("7 records, sum 220: o1 o2 o3 o4 o3 o4 o5");
    assertThat(cell(real, "read_committed", "verdict")).hasText("agree");
    assertThat(real.locator("[data-real-run-events] li[data-kind='restart']")).hasCount(1);
    assertThat(real.locator("[data-real-run-timeline]")).isVisible();
    assertThat(real.locator("[data-real-run-timeline]")).containsText("billing-alo");
    real.locator("[data-real-run-events] summary").click();
    assertEquals(List.of(), AxeScan.seriousViolations(page, "sandbox tab with a real run"));

    real.locator("[data-real-run-button='fencing']").click();
    assertThat(real.locator("[data-real-run-errors] li").first())
        .hasText("org.apache.kafka.common.errors.InvalidProducerEpochException Producer attempted to produce with an old epoch.", SLOW);
    assertThat(cell(real, "read_committed", "simulated")).hasText("\u2014");
  }

  @Test
  void on_a_phone_a_moved_knob_changes_both_figures_and_they_still_agree() {
    Locator real = open(390, 844, true);
    page.locator("[id='sandbox/sink-demo'] [data-knob='CRASH_AFTER']").fill("3");
    real.locator("[data-real-run-button='seed-crash']").click();
    assertThat(real.locator("[data-real-run-phases]")).isVisible(); // settings nobody ran yet: a real run, in phases
    assertThat(real.locator("[data-real-run-summary]")).hasText("The simulation and the real engines agree on every reader.", SLOW);
    assertThat(real.locator(".real-run-settings")).hasText(
        "The sink demo's crash with CRASH_AFTER=3, CHECKPOINT_AFTER=2, CRASH_BEFORE_COMPLETE=false, CRASH_BEFORE_COMMIT=false");
    assertThat(cell(real, "at_least_once", "real")).hasText("6 records, sum 180: o1 o2 o3 o3 o4 o5");
    assertThat(cell(real, "at_least_once", "simulated")).hasText("6 records, sum 180: o1 o2 o3 o3 o4 o5");
    assertThat(cell(real, "read_committed", "real")).hasText("5 records, sum 150: o1 o2 o3 o4 o5");
    assertEquals(Boolean.TRUE, page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"),
        "the figures fit the phone's width");
  }
}
