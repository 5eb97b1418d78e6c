package lab.exactlyonce;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base for browser tests: one app (started by {@link ServerTest}) and one Debian Chromium per test class, a fresh
 * context and page per test. A browser that cannot start fails the test class; it never skips. Every page is checked
 * for console errors and failed requests after each test.
 */
@Tag("browser")
public abstract class BrowserTest extends ServerTest {
  public static final Path CHROMIUM = Paths.get(System.getProperty("chromium.path", "/usr/bin/chromium"));

  protected Playwright playwright;
  protected Browser browser;
  protected BrowserContext context;
  protected Page page;
  protected final List<String> consoleErrors = new ArrayList<>();

  @BeforeAll
  void startBrowser() throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      throw new IllegalStateException("browser tests need Chromium at " + CHROMIUM + " (apt-get install chromium)");
    }
    Path home = Files.createDirectories(Paths.get("target", "chromium-home").toAbsolutePath());
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
        .setExecutablePath(CHROMIUM)
        .setHeadless(true)
        .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"))
        .setEnv(Map.of("HOME", home.toString(),
            "XDG_CONFIG_HOME", home.resolve("config").toString(),
            "XDG_CACHE_HOME", home.resolve("cache").toString(),
            "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"))));
  }

  @BeforeEach
  void openPage() {
    consoleErrors.clear();
    context = browser.newContext(newContextOptions());
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
    context.close();
    context = browser.newContext(options);
    page = watched(context.newPage());
    return page;
  }

  /**
   * Waits until the page has stopped scrolling: opening a tab scrolls to it smoothly (these contexts do not ask for
   * reduced motion), and a click aimed at a node while the page still moves can land beside it.
   */
  protected void awaitScrollSettled() {
    page.waitForFunction("() => new Promise(done => { const y = scrollY; "
        + "requestAnimationFrame(() => requestAnimationFrame(() => done(scrollY === y))); })");
  }

  protected Browser.NewContextOptions newContextOptions() {
    return new Browser.NewContextOptions().setViewportSize(1280, 900);
  }

  @AfterEach
  void closePage() {
    List<String> errors = List.copyOf(consoleErrors);
    context.close();
    assertEquals(List.of(), errors, "the page logged errors");
  }

  @AfterAll
  void stopBrowser() {
    if (browser != null) browser.close();
    if (playwright != null) playwright.close();
  }

  protected String url(String path) {
    return server.url(path);
  }
}
