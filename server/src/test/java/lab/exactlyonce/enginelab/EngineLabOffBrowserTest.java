package lab.exactlyonce.enginelab;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import lab.exactlyonce.BrowserTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

/** An app started without the engine lab: the sink demo says how to turn it on, on a phone and on a desktop. */
class EngineLabOffBrowserTest extends BrowserTest {

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844, true", "1280, 800, false"})
  void the_sink_demo_says_how_to_turn_the_engine_lab_on(int width, int height, boolean mobile) {
    reopen(new Browser.NewContextOptions().setViewportSize(width, height).setIsMobile(mobile));
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator real = page.locator("[id='sandbox/sink-demo'] [data-real-run]");
    assertThat(real.locator("[data-real-run-off]")).hasText("The engine lab is off: build it with mvn package, then"
        + " start the app with --engine-lab on or ENGINE_LAB=on.");
    assertThat(real.locator("[data-real-run-off]")).isVisible();
    assertThat(real.locator("[data-real-run-button]")).hasCount(0);
  }
}
