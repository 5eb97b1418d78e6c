package lab.exactlyonce.lesson;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.Media;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lesson page's tabs, deep links, Q&A widgets, the page without JavaScript and on a phone. */
class LessonPageBrowserTest extends BrowserTest {
  static final String LESSON = "/lessons/exactly-once";

  /** The fixture lesson has every block kind and stable content (L1..L4, two scenario questions). */
  @Override
  protected TestServer startServer() {
    return TestServer.start(TestConfig.defaults().withLessonsDir(LessonValidationTest.resource("ui-lessons")));
  }

  private Locator tab(String name) {
    return page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private Locator byId(String id) {
    return page.locator("[id='" + id + "']");
  }

  private void assertOnTab(String name, String panelId) {
    assertThat(tab(name)).hasAttribute("aria-selected", "true");
    for (String panel : List.of("gist", "maps", "qa", "sandbox")) {
      if (panel.equals(panelId)) assertThat(byId(panel)).isVisible();
      else assertThat(byId(panel)).isHidden();
    }
  }

  @Test
  void tabs_follow_the_aria_pattern_and_switch_by_mouse() {
    page.navigate(url(LESSON));
    assertThat(page.getByRole(AriaRole.TABLIST)).hasCount(1);
    assertOnTab("Gist", "gist");
    assertThat(tab("Gist")).hasAttribute("tabindex", "0");
    assertThat(tab("Maps")).hasAttribute("tabindex", "-1");
    assertThat(tab("Q&A")).hasAttribute("aria-controls", "qa");
    assertThat(byId("qa")).hasAttribute("role", "tabpanel");
    assertThat(byId("qa")).hasAttribute("aria-labelledby", "tab-qa");

    tab("Q&A").click();
    assertOnTab("Q&A", "qa");
    assertThat(page).hasURL(Pattern.compile("#qa$"));
    tab("Sandbox").click();
    assertOnTab("Sandbox", "sandbox");
  }

  @Test
  void tabs_switch_by_keyboard_with_arrows_home_and_end() {
    page.navigate(url(LESSON));
    tab("Gist").focus();
    page.keyboard().press("ArrowRight");
    assertThat(tab("Maps")).isFocused();
    assertOnTab("Maps", "maps");
    page.keyboard().press("End");
    assertThat(tab("Sandbox")).isFocused();
    assertOnTab("Sandbox", "sandbox");
    page.keyboard().press("ArrowRight");
    assertThat(tab("Gist")).isFocused();
    assertOnTab("Gist", "gist");
    page.keyboard().press("ArrowLeft");
    assertOnTab("Sandbox", "sandbox");
    page.keyboard().press("Home");
    assertOnTab("Gist", "gist");
    page.keyboard().press("Tab");
    assertThat(byId("gist")).isFocused();
    // the ring marks the panel's heading, not a frame round the whole panel
    assertThat(byId("gist")).hasCSS("outline-style", "none");
    assertThat(byId("gist").locator("> h2")).hasCSS("outline-style", "solid");
  }

  @Test
  void a_deep_link_opens_its_tab_and_brings_the_item_into_view() {
    page.addInitScript("window.__routes = []; document.addEventListener('lesson:route', e => window.__routes.push(e.detail));");
    page.navigate(url(LESSON + "#qa/L3"));
    assertOnTab("Q&A", "qa");
    assertThat(byId("qa/L3")).isInViewport();
    assertThat(byId("qa/L3")).isFocused();
    assertEquals("[{\"tab\":\"qa\",\"path\":[\"L3\"]}]", page.evaluate("JSON.stringify(window.__routes)"));
  }

  @Test
  void a_link_in_the_text_routes_to_its_item_and_back_returns() {
    page.navigate(url(LESSON));
    page.getByText("a good one").click();
    assertOnTab("Q&A", "qa");
    assertThat(byId("qa/L3")).isInViewport();
    page.goBack();
    assertOnTab("Gist", "gist");
  }

  @Test
  void the_skip_link_moves_focus_to_the_content_and_keeps_the_tab() {
    page.navigate(url(LESSON));
    tab("Q&A").click();
    Locator skip = page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Skip to content"));
    assertEquals("Skip to content", page.evaluate("document.querySelector('body a, body button, [tabindex]').textContent"));
    skip.focus();
    assertThat(skip).isInViewport();
    page.keyboard().press("Enter");
    assertThat(byId("main")).isFocused();
    assertOnTab("Q&A", "qa");
  }

  @Test
  void back_and_forward_walk_the_tab_history() {
    page.navigate(url(LESSON));
    tab("Maps").click();
    tab("Q&A").click();
    assertOnTab("Q&A", "qa");
    page.goBack();
    assertOnTab("Maps", "maps");
    assertThat(page).hasURL(Pattern.compile("#maps$"));
    page.goBack();
    assertOnTab("Gist", "gist");
    page.goForward();
    assertOnTab("Maps", "maps");
    page.goForward();
    assertOnTab("Q&A", "qa");
  }

  @Test
  void the_ladder_reveals_one_level_at_a_time_or_all() {
    page.navigate(url(LESSON + "#qa"));
    Locator answers = page.locator(".ladder-item > details");
    assertThat(answers).hasCount(4);
    Locator next = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reveal next level"));
    Locator all = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reveal all"));
    Locator none = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Hide all"));
    assertThat(none).isDisabled();
    assertThat(byId("qa/L1").getByText("A replayable source, consistent snapshots")).isHidden();

    next.click();
    assertThat(byId("qa/L1").getByText("A replayable source, consistent snapshots")).isVisible();
    assertThat(byId("qa/L2").locator("details")).not().hasAttribute("open", "");
    next.click();
    assertThat(byId("qa/L2").locator("details")).hasAttribute("open", "");
    assertThat(byId("qa/L3").locator("details")).not().hasAttribute("open", "");
    assertThat(page.locator(".ladder-status")).hasText("2 of 4 answers shown.");

    all.click();
    for (int i = 0; i < 4; i++) assertThat(answers.nth(i)).hasAttribute("open", "");
    assertThat(next).isDisabled();
    none.click();
    for (int i = 0; i < 4; i++) assertThat(answers.nth(i)).not().hasAttribute("open", "");
    assertThat(page.locator(".ladder-status")).hasText("0 of 4 answers shown.");
  }

  @Test
  void a_scenario_answer_and_its_revealed_model_answer_survive_a_reload() {
    page.navigate(url(LESSON + "#qa/sc-api"));
    Locator mine = page.getByLabel("Your answer").first();
    assertThat(mine).hasAttribute("id", "qa/sc-api/answer");
    mine.fill("The order id, sent as the Idempotency-Key header.");
    Locator model = byId("qa/sc-api").locator("details");
    model.locator("summary").click();
    assertThat(model).hasAttribute("open", "");

    page.reload();
    assertThat(page.getByLabel("Your answer").first()).hasValue("The order id, sent as the Idempotency-Key header.");
    assertThat(byId("qa/sc-api").locator("details")).hasAttribute("open", "");
    assertThat(page.getByLabel("Your answer").nth(1)).hasValue("");
    assertThat(byId("qa/sc-data").locator("details")).not().hasAttribute("open", "");
  }

  @OwnContexts
  @Test
  void without_javascript_the_lesson_reads_top_to_bottom() {
    try (BrowserContext noJs = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
      Page plain = noJs.newPage();
      plain.navigate(url(LESSON));
      for (String panel : List.of("gist", "maps", "qa", "sandbox")) {
        assertThat(plain.locator("[id='" + panel + "'] > h2")).isVisible();
      }
      assertThat(plain.locator("nav.tabs a[href^='#']")).hasCount(4);
      Locator ladderAnswers = plain.locator("[id='qa/ladder-questions'] details");
      assertThat(ladderAnswers).hasCount(4);
      assertThat(ladderAnswers.nth(2)).containsText("invisible to read_committed consumers");
      assertThat(plain.getByText("Voice readout needs JavaScript.")).isVisible();
      assertThat(plain.locator("[data-voice]")).isHidden();
      assertThat(plain.locator(".ladder-controls")).isHidden();
      plain.navigate(url(LESSON + "#qa/L3"));
      assertThat(plain.locator("[id='qa/L3']")).isInViewport();
    }
  }

  @Test
  void printing_shows_every_panel_and_every_answer_without_the_controls() {
    page.navigate(url(LESSON + "#qa"));
    page.emulateMedia(new Page.EmulateMediaOptions().setMedia(Media.PRINT));
    for (String panel : List.of("gist", "maps", "qa", "sandbox")) assertThat(byId(panel)).isVisible();
    assertThat(page.locator("nav.tabs")).isHidden();
    assertThat(page.locator(".ladder-controls")).isHidden();
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
    assertThat(page.locator("details:not([open])")).hasCount(0);
    page.evaluate("window.dispatchEvent(new Event('afterprint'))");
    assertThat(byId("qa/L1").locator("details")).not().hasAttribute("open", "");
  }

  @OwnContexts
  @Test
  void on_a_phone_no_tab_scrolls_the_page_sideways() {
    try (BrowserContext phone = newContext(new Browser.NewContextOptions().setViewportSize(360, 740)
        .setIsMobile(true).setHasTouch(true).setDeviceScaleFactor(2))) {
      Page small = phone.newPage();
      small.onPageError(error -> consoleErrors.add("uncaught: " + error));
      small.navigate(url(LESSON));
      for (String name : List.of("Gist", "Maps", "Q&A", "Sandbox")) {
        small.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName(name).setExact(true)).click();
        Object overflow = small.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
        assertEquals(0, ((Number) overflow).intValue(), name + " tab overflows by " + overflow + " px");
      }
    }
  }
}
