package lab.exactlyonce.share;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.LocatorAssertions;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Share link button in Chromium, on a desktop and a 390 px phone: a short link that opens the edit in a browser
 * that has never seen it. No code runs, so no sandbox worker starts.
 */
class ShareBrowserTest extends BrowserTest {
  /** A fresh page loads the editor before it restores the edit: on a loaded machine that can take seconds. */
  private static final LocatorAssertions.IsVisibleOptions EDITOR = new LocatorAssertions.IsVisibleOptions().setTimeout(20_000);
  private static final LocatorAssertions.HasTextOptions RESTORED = new LocatorAssertions.HasTextOptions().setTimeout(20_000);

  private static Browser.NewContextOptions screen(String device) {
    Browser.NewContextOptions options = new Browser.NewContextOptions()
        .setPermissions(List.of("clipboard-read", "clipboard-write"));
    return device.equals("phone") ? options.setViewportSize(390, 844).setIsMobile(true) : options.setViewportSize(1280, 900);
  }

  /** A page in a context of its own whose console errors fail the test, like the base class's page. */
  private Page freshPage(String device) {
    return watched(newContext(screen(device)).newPage());
  }

  private static Locator sinkDemo(Page on) {
    Locator demo = on.locator("[id='sandbox/sink-demo']");
    assertThat(demo.locator(".CodeMirror")).isVisible(EDITOR);
    return demo;
  }

  private static String editorText(Locator widget) {
    return (String) widget.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.getValue()");
  }

  private static void typeAtEnd(Page on, Locator widget, String text) {
    widget.locator(".CodeMirror").click();
    editorFocused(widget);
    on.keyboard().press("Control+End");
    on.keyboard().type(text);
  }

  /** The review's edit: the knobs' declarations changed in the code itself, as a knob change or typing leaves them. */
  private static void setDeclarations(Locator widget) {
    widget.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.setValue(cm.CodeMirror.getValue()"
        + ".replace('CHECKPOINT_AFTER = 2;', 'CHECKPOINT_AFTER = 1;').replace('CRASH_AFTER = 4;', 'CRASH_AFTER = 3;')"
        + ".replace('CRASH_BEFORE_COMMIT = false;', 'CRASH_BEFORE_COMMIT = true;'))");
  }

  /** The knob fields show what the code sets: checkpoint every 1, crash after 3, crash before the commit. */
  private static void assertKnobsShowTheEdit(Locator widget) {
    assertThat(widget.locator("[data-knob='CHECKPOINT_AFTER']")).hasValue("1");
    assertThat(widget.locator("[data-knob='CRASH_AFTER']")).hasValue("3");
    assertThat(widget.locator("[data-knob='CRASH_BEFORE_COMPLETE']")).not().isChecked();
    assertThat(widget.locator("[data-knob='CRASH_BEFORE_COMMIT']")).isChecked();
    assertThat(widget.locator("[data-knob-error]:visible")).hasCount(0);
  }

  @ParameterizedTest(name = "on a {0}")
  @ValueSource(strings = {"desktop", "phone"})
  void the_share_link_is_short_and_opens_the_edit_and_its_knobs_in_a_fresh_browser(String device) {
    Page mine = freshPage(device);
    mine.navigate(url("/lessons/exactly-once#sandbox"));
    Locator demo = sinkDemo(mine);
    assertThat(demo.locator("[data-knob='CRASH_AFTER']")).hasValue("4");
    setDeclarations(demo);
    assertKnobsShowTheEdit(demo);   // the fields follow the code as it is edited
    typeAtEnd(mine, demo, "\n// shared from a " + device + " \u00e9");
    String edited = editorText(demo);
    demo.locator("[data-share]").click();
    assertThat(demo.locator("[data-status]")).hasText("Share link copied: it opens this edit.");
    String link = demo.locator("[data-share-link]").inputValue();
    assertTrue(link.matches("http://127\\.0\\.0\\.1:\\d+/s/[A-Za-z0-9_-]{12}") && link.length() < 40, link);
    assertEquals(link, mine.evaluate("() => navigator.clipboard.readText()"));
    assertThat(demo.locator("[data-share-link]")).isVisible(); // the link is shown too
    mine.context().close();

    Page theirs = freshPage(device);
    theirs.navigate(link);
    Locator restored = sinkDemo(theirs);
    assertThat(restored.locator("[data-status]")).hasText(
        "Restored an edited version from the link. Reset to starter brings back the original.", RESTORED);
    assertEquals(edited, editorText(restored));
    assertKnobsShowTheEdit(restored);
    assertTrue(theirs.url().startsWith(url("/lessons/exactly-once#sandbox/sink-demo?share=")), theirs.url());
    assertThat(restored.locator(".CodeMirror")).isVisible(); // the editor with the code is on screen
    theirs.context().close();
  }

  @OwnContexts
  @Test
  void when_the_server_refuses_a_short_link_the_button_gives_the_long_one_and_says_why() {
    Page refused = newContext(screen("desktop")).newPage();
    List<String> errors = new ArrayList<>();
    refused.onConsoleMessage(msg -> {
      if ("error".equals(msg.type())) errors.add(msg.text());
    });
    refused.route("**/api/shares", route -> route.fulfill(new Route.FulfillOptions()
        .setStatus(429).setHeaders(Map.of("Retry-After", "20")).setContentType("application/json")
        .setBody("{\"error\": \"too many share links from your address; try again in 20 s\"}")));
    refused.navigate(url("/lessons/exactly-once#sandbox"));
    Locator demo = sinkDemo(refused);
    typeAtEnd(refused, demo, "\n// kept in the link");
    String edited = editorText(demo);
    demo.locator("[data-share]").click();
    assertThat(demo.locator("[data-status]")).hasText("No short link (too many share links from your address; try again "
        + "in 20 s), so this long link holds the code itself (copied).");
    String link = demo.locator("[data-share-link]").inputValue();
    assertTrue(link.startsWith(url("/lessons/exactly-once#sandbox/sink-demo?src=")), link);
    assertTrue(errors.stream().allMatch(e -> e.contains("429")), "only the refused request is logged: " + errors);
    refused.context().close();

    Page theirs = freshPage("desktop");
    theirs.navigate(link);
    Locator restored = sinkDemo(theirs);
    assertThat(restored.locator("[data-status]")).hasText(
        "Restored an edited version from the link. Reset to starter brings back the original.", RESTORED);
    assertEquals(edited, editorText(restored));

    // Code a knob cannot show as set: the field says what the code does instead of a value it does not run with.
    restored.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.setValue(cm.CodeMirror.getValue()"
        + ".replace('CRASH_AFTER = 4;', 'CRASH_AFTER = 9;')"
        + ".replace('static final int CHECKPOINT_AFTER', 'int every'))");
    assertThat(restored.locator("[data-knob='CRASH_AFTER']")).hasValue("9");
    assertThat(restored.locator("[data-knob-error='CRASH_AFTER']")).hasText(
        "The code sets 9, outside 1 to 5; this knob can set it back in range.");
    assertThat(restored.locator("[data-knob='CHECKPOINT_AFTER']")).isDisabled();
    assertThat(restored.locator("[data-knob-error='CHECKPOINT_AFTER']")).hasText("Not in the code: it no longer "
        + "declares \u2018static final int CHECKPOINT_AFTER = \u2026;\u2019, which this knob sets. Reset to starter "
        + "brings it back.");
    theirs.context().close();
  }
}
