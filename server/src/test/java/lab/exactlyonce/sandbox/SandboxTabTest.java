package lab.exactlyonce.sandbox;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.assertions.LocatorAssertions;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TestServer;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

/** Base for browser tests of the Sandbox tab: an app of its own, its sandbox engine in this JVM. */
abstract class SandboxTabTest extends BrowserTest {
  /** How long a run may take to show its result in the page. */
  static final LocatorAssertions.HasTextOptions SLOW = new LocatorAssertions.HasTextOptions().setTimeout(20_000);

  @Override
  protected TestServer startServer() {
    return TestServer.start();
  }

  /** Opens the Sandbox tab and returns widget {@code id} (a snippet id, or {@code exercise/<id>}) once its editor shows. */
  Locator openWidget(String id) {
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator widget = page.locator("[id='sandbox/" + id + "']");
    assertThat(widget.locator(".CodeMirror")).isVisible();
    return widget;
  }

  /**
   * Types {@code text} at the end of the widget's editor with the keyboard. The editor is given the focus through its
   * own API: on a phone screen under CI's load a click at the editor's middle now and then left it unfocused (what
   * these tests try is what typing does, not where a tap lands; WorkbenchBrowserTest clicks into the editor itself).
   */
  void typeAtEnd(Locator widget, String text) {
    widget.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.focus()");
    editorFocused(widget);
    page.keyboard().press("Control+End");
    page.keyboard().type(text);
  }

  /** The text in the widget's editor. */
  static String editorText(Locator widget) {
    return (String) widget.locator(".CodeMirror").evaluate("cm => cm.CodeMirror.getValue()");
  }
}
