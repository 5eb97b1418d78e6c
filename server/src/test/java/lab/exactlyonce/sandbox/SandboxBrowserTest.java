package lab.exactlyonce.sandbox;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.LoadState;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Sandbox tab in Chromium, against the real sandbox (real worker JVMs). */
class SandboxBrowserTest extends SandboxTabTest {
  Locator sinkDemo() {
    return openWidget("sink-demo");
  }

  /**
   * A learner reading the Gist on a phone downloads no editor, and the page stays within 150 KB over the wire:
   * CodeMirror, more than half of the lesson's weight, comes with the Sandbox tab.
   */
  @OwnContexts
  @Test
  void on_a_phone_the_gist_downloads_no_editor_until_the_sandbox_tab_opens() {
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
    List<String> requested = new CopyOnWriteArrayList<>();
    page.onRequest(request -> requested.add(request.url()));
    page.navigate(url("/lessons/exactly-once"));
    page.waitForLoadState(LoadState.NETWORKIDLE);
    assertEquals(List.of(), requested.stream().filter(u -> u.contains("/webjars/codemirror/")).toList());
    long bytes = ((Number) page.evaluate("() => performance.getEntriesByType('navigation')"
        + ".concat(performance.getEntriesByType('resource')).reduce((sum, e) => sum + e.transferSize, 0)")).longValue();
    System.out.println("the Gist on a phone: " + bytes + " bytes over the wire");   // docs/performance.md's figure
    assertTrue(bytes <= 150 * 1024, "the Gist took " + bytes + " bytes over the wire");

    page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Sandbox").setExact(true)).click();
    assertThat(page.locator("[id='sandbox/sink-demo'] .CodeMirror")).isVisible();
  }

  @Test
  void running_the_sink_demo_shows_the_three_lines_and_the_explanation() {
    Locator demo = sinkDemo();
    assertThat(demo.locator("[data-explanation]")).isHidden();
    demo.getByRole(AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Run").setExact(true)).click();
    assertThat(demo.locator("[data-status]")).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);
    assertThat(demo.locator("[data-stdout]")).hasText(
        "AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n");
    assertThat(demo.locator("[data-explanation]")).isVisible();
    assertThat(demo.locator("[data-explanation]")).containsText("The append sink wrote o3 and o4 twice");
    assertThat(demo.locator("[data-differs]")).isHidden();
  }

  @Test
  void a_compile_error_is_listed_and_marked_at_its_line_and_ctrl_enter_runs() {
    Locator demo = sinkDemo();
    String original = editorText(demo);
    int lines = original.split("\n", -1).length;
    typeAtEnd(demo, "oops");
    page.keyboard().press("Control+Enter");
    assertThat(demo.locator("[data-status]")).hasText(Pattern.compile("^Compile error \\(line " + lines + "\\)"), SLOW);
    assertThat(demo.locator("[data-diagnostics] li").first()).containsText("Line " + lines);
    Locator marked = demo.locator(".CodeMirror-code > div").nth(lines - 1);
    assertThat(marked.locator(".sandbox-error-line")).hasCount(1);
    assertThat(marked.locator(".sandbox-marker")).hasCount(1);
    assertThat(demo.locator("[data-expected]")).isHidden();

    page.onDialog(dialog -> dialog.accept()); // Reset to starter asks before it discards the edit
    demo.locator("[data-reset]").click();
    assertEquals(original, editorText(demo));
    assertThat(demo.locator("[data-status]")).hasText("Reset to the starter code.");
    assertThat(demo.locator(".sandbox-error-line")).hasCount(0);
  }

  @Test
  void an_edited_output_says_it_differs_from_the_lesson() {
    Locator demo = sinkDemo();
    // an edit no knob stands for (one a knob sets moves the knob, and makes the run an experiment)
    demo.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.setValue(cm.CodeMirror.getValue()"
        + ".replace('System.out.println(sink.report())', 'System.out.println(\\\"> \\\" + sink.report())'))");
    demo.locator("[data-run]").click();
    assertThat(demo.locator("[data-status]")).hasText(
        Pattern.compile("^Finished in \\d+ ms · the output differs from the lesson's$"), SLOW);
    assertThat(demo.locator("[data-differs]")).isVisible();
    assertThat(demo.locator("[data-explanation]")).isHidden();
  }

  @Test
  void a_long_share_link_restores_the_edit() {
    Locator demo = sinkDemo();
    typeAtEnd(demo, "\n// my change é");
    String edited = editorText(demo);
    // A long link holds the code itself: the Share link button gives one when the server refuses a short one.
    String link = url("/lessons/exactly-once#sandbox/sink-demo?src=")
        + Base64.getUrlEncoder().withoutPadding().encodeToString(edited.getBytes(StandardCharsets.UTF_8));

    var other = context.newPage();
    other.navigate(link);
    Locator restored = other.locator("[id='sandbox/sink-demo']");
    // A fresh page loads the editor before it restores the edit: on a loaded CI machine that can take seconds.
    assertThat(restored.locator(".CodeMirror")).isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(20_000));
    assertThat(restored.locator("[data-status]")).hasText(
        "Restored an edited version from the link. Reset to starter brings back the original.", SLOW);
    assertEquals(edited, editorText(restored));
    other.close();
  }
}
