package lab.exactlyonce;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;

/**
 * One Playwright driver and one Debian Chromium per test JVM, launched by the first browser test class and closed
 * when the JVM's tests end ({@link ForkSetup}); every test gets a fresh context of its own ({@link BrowserTest}). A
 * browser that cannot start fails the class that asked for it; it never skips.
 */
public final class Browsers {
  public static final Path CHROMIUM = Paths.get(System.getProperty("chromium.path", "/usr/bin/chromium"));

  private static Playwright playwright;
  private static Browser chromium;

  private Browsers() {}

  /** The JVM's Chromium, launched on first use (and again if it went away). */
  public static synchronized Browser chromium() {
    if (chromium != null && chromium.isConnected()) return chromium;
    close();
    if (!Files.isExecutable(CHROMIUM)) {
      throw new IllegalStateException("browser tests need Chromium at " + CHROMIUM + " (apt-get install chromium)");
    }
    playwright = SharedFixtures.make("playwright",
        () -> Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"))));
    chromium = SharedFixtures.make("chromium", () -> playwright.chromium().launch(launchOptions()));
    return chromium;
  }

  private static BrowserType.LaunchOptions launchOptions() {
    Path home;
    try {
      home = Files.createDirectories(Paths.get("target", "chromium-home").toAbsolutePath());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BrowserType.LaunchOptions()
        .setExecutablePath(CHROMIUM)
        .setHeadless(true)
        .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
            // No spare renderer started ahead for the next navigation, no page kept for going back: a test never
            // uses either, and they cost the suite about a seventh of its browser classes' CPU time.
            "--disable-features=SpareRendererForSitePerProcess,BackForwardCache"))
        .setEnv(Map.of("HOME", home.toString(),
            "XDG_CONFIG_HOME", home.resolve("config").toString(),
            "XDG_CACHE_HOME", home.resolve("cache").toString(),
            "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin")));
  }

  /** Contexts still open in the JVM's Chromium (none between test classes). */
  static synchronized int openContexts() {
    return chromium == null || !chromium.isConnected() ? 0 : chromium.contexts().size();
  }

  static synchronized void close() {
    if (chromium != null) chromium.close();
    if (playwright != null) playwright.close();
    chromium = null;
    playwright = null;
  }
}
