package lab.exactlyonce;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ReducedMotion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base for browser tests: one app (from {@link ServerTest}), the test JVM's one Chromium ({@link Browsers}), and a
 * fresh context and page per test (none for a test marked {@link OwnContexts}, which opens its own). Every context
 * asks for reduced motion, as the app's own users may: nothing scrolls or fades while a test clicks (the one test of
 * the smooth path asks for it explicitly). Every page is checked for console errors and failed requests after each
 * test.
 */
@Tag("browser")
public abstract class BrowserTest extends ServerTest {
  protected Browser browser;
  protected BrowserContext context;
  protected Page page;
  protected final List<String> consoleErrors = new ArrayList<>();

  @BeforeAll
  void startBrowser() {
    browser = Browsers.chromium();
  }

  @BeforeEach
  void openPage(TestInfo test) {
    consoleErrors.clear();
    context = null;
    page = null;
    boolean own = getClass().isAnnotationPresent(OwnContexts.class)
        || test.getTestMethod().map(method -> method.isAnnotationPresent(OwnContexts.class)).orElse(false);
    if (own) return;
    context = newContext(newContextOptions());
    page = watched(context.newPage());
  }

  /** {@code p} with its console errors, uncaught errors and failed requests failing the test, as the base page's do. */
  protected Page watched(Page p) {
    p.onConsoleMessage(msg -> {
      if ("error".equals(msg.type())) consoleErrors.add(msg.text());
    });
    p.onPageError(error -> consoleErrors.add("uncaught: " + error));
    p.onRequestFailed(request -> consoleErrors.add("request failed: " + request.url()));
    return p;
  }

  /** Replaces the base page with one in a new context of these options (a phone's screen, say); closed after the test. */
  protected Page reopen(Browser.NewContextOptions options) {
    if (context != null) context.close();
    context = newContext(options);
    page = watched(context.newPage());
    return page;
  }

  /**
   * A new context of the test JVM's Chromium with these options, asking for reduced motion unless they say otherwise;
   * the test closes it.
   */
  protected BrowserContext newContext(Browser.NewContextOptions options) {
    if (options.reducedMotion == null) options.setReducedMotion(ReducedMotion.REDUCE);
    return browser.newContext(options);
  }

  protected Browser.NewContextOptions newContextOptions() {
    return new Browser.NewContextOptions().setViewportSize(1280, 900);
  }

  @AfterEach
  void closePage() {
    List<String> errors = List.copyOf(consoleErrors);
    if (context != null) context.close();
    assertEquals(List.of(), errors, "the page logged errors");
  }

  protected String url(String path) {
    return server.url(path);
  }

  /**
   * Waits until the widget's editor has the focus before keys are pressed in it: keys that arrive before CodeMirror
   * has taken the focus (it does so on a timer when the click lands in a selection) go to the page and are lost,
   * which a busy host made happen on CI.
   */
  protected static void editorFocused(Locator widget) {
    assertThat(widget.locator(".CodeMirror")).hasClass(Pattern.compile("\\bCodeMirror-focused\\b"));
  }
}
