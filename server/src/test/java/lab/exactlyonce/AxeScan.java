package lab.exactlyonce;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * axe-core (vendored, {@code vendor/axe.min.js}) run on whatever a page shows now: the serious and critical
 * violations, each as "where: impact rule (help): targets". Shared by the browser tests that scan a view.
 */
public final class AxeScan {
  private static final String SCAN = """
      () => axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.impact + ' ' + v.id + ' (' + v.help + '): ' + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', ')))
      """;
  private static final String AXE = load();

  private AxeScan() {
  }

  public static List<String> seriousViolations(Page page, String where) {
    inject(page);
    @SuppressWarnings("unchecked")
    List<String> found = (List<String>) page.evaluate(SCAN);
    return found.stream().map(v -> where + ": " + v).toList();
  }

  /**
   * Loads axe into the page as a script of the page's own origin (answered by the test, never by the app), so the
   * pages' content security policy, which refuses inline scripts, stays on while they are scanned.
   */
  public static void inject(Page page) {
    if (Boolean.TRUE.equals(page.evaluate("typeof window.axe !== 'undefined'"))) return;
    String url = URI.create(page.url()).resolve("/__test-only/axe.min.js").toString();
    page.route(url, route -> route.fulfill(new Route.FulfillOptions()
        .setContentType("text/javascript").setBody(AXE)));
    page.addScriptTag(new Page.AddScriptTagOptions().setUrl(url));
  }

  private static String load() {
    try (InputStream in = AxeScan.class.getResourceAsStream("/vendor/axe.min.js")) {
      if (in == null) throw new IllegalStateException("vendor/axe.min.js is missing from the test resources");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
