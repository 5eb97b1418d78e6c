package lab.exactlyonce.lesson;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.ReducedMotion;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The home page and every bundled lesson on phones (320x640 and 390x844, touch), a laptop (1280x800) and a wide screen
 * (1920x1080): nothing
 * scrolls the page sideways and no tab loads from another site, the tabs and an opened tab's content are on the first
 * screen, the voice controls stay in reach while reading, the map's explanation opens in view and its labels stay
 * readable; without JavaScript the lesson reads top to bottom.
 */
@OwnContexts
class ScreenSizesBrowserTest extends BrowserTest {
  enum Screen {
    PHONE(390, 844, true), LAPTOP(1280, 800, false);

    final int width;
    final int height;
    final boolean touch;

    Screen(int width, int height, boolean touch) {
      this.width = width;
      this.height = height;
      this.touch = touch;
    }
  }

  private final List<BrowserContext> opened = new ArrayList<>();

  /** A page on that screen, its errors checked like the base page's; reduced motion, so scrolls land at once. */
  private Page open(Screen screen) {
    return open(screen.width, screen.height, screen.touch);
  }

  private Page open(int width, int height, boolean touch) {
    BrowserContext context = newContext(new Browser.NewContextOptions()
        .setViewportSize(width, height).setIsMobile(touch).setHasTouch(touch).setReducedMotion(ReducedMotion.REDUCE));
    opened.add(context);
    return watched(context.newPage());
  }

  static Stream<String> lessons() {
    return BundledLessons.ids().stream();
  }

  /** Each screen with each bundled lesson. */
  static Stream<Arguments> screensAndLessons() {
    return Stream.of(Screen.values()).flatMap(screen -> lessons().map(id -> arguments(screen, id)));
  }

  private static String pathOf(String lesson) {
    return "/lessons/" + lesson;
  }

  @AfterEach
  void closeScreens() {
    opened.forEach(BrowserContext::close);
    opened.clear();
  }

  private static Locator tab(Page page, String name) {
    return page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private static void assertNoSidewaysScroll(Page page, String where) {
    Number over = (Number) page.evaluate("document.scrollingElement.scrollWidth - innerWidth");
    assertTrue(over.intValue() <= 0, where + " scrolls sideways by " + over + " px");
  }

  /** The element's top or bottom edge, in px from the top of the viewport. */
  private static double edge(Page page, String selector, String which) {
    return ((Number) page.evaluate("([s, w]) => document.querySelector(s).getBoundingClientRect()[w]",
        List.of(selector, which))).doubleValue();
  }

  /** Whether the element lies wholly between the top and the bottom of the viewport. */
  private static boolean inView(Page page, String selector) {
    return (Boolean) page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect();"
        + " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }", selector);
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"320, 640, true", "390, 844, true", "1280, 800, false"})
  void the_home_page_does_not_scroll_sideways(int width, int height, boolean touch) {
    Page page = open(width, height, touch);
    page.navigate(url("/"));
    assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Join a class"))).isVisible();
    assertNoSidewaysScroll(page, "home");
    assertEquals(List.of(), AxeScan.seriousViolations(page, "home at " + width + " px"));
  }

  /** Every bundled lesson at each size: 320x640 and 390x844 phones and a 1280x800 laptop. */
  static Stream<Arguments> sizesAndLessons() {
    return Stream.of(arguments(320, 640, true), arguments(390, 844, true), arguments(1280, 800, false))
        .flatMap(size -> lessons().map(id -> arguments(size.get()[0], size.get()[1], size.get()[2], id)));
  }

  /**
   * Tables wider than a phone scroll inside their own box, which shows a shadow at the edge that hides columns. Every
   * request the tabs make, the Sandbox's editor included, goes to this site: a lesson works offline in a classroom.
   */
  @ParameterizedTest(name = "{3} at {0}x{1}")
  @MethodSource("sizesAndLessons")
  void no_tab_of_a_lesson_scrolls_sideways_or_loads_from_another_site(int width, int height, boolean touch,
      String lesson) {
    Page page = open(width, height, touch);
    List<String> elsewhere = new CopyOnWriteArrayList<>();
    page.onRequest(request -> {
      if (!request.url().startsWith(url("/")) && !request.url().startsWith("data:")) elsewhere.add(request.url());
    });
    page.navigate(url("/lessons/" + lesson));
    for (String name : List.of("Gist", "Maps", "Q&A", "Sandbox")) {
      tab(page, name).click();
      assertThat(page.locator("[role=tabpanel]:not([hidden]) > h2")).isVisible();
      assertNoSidewaysScroll(page, lesson + " " + name + " tab at " + width + " px");
    }
    // Every editor has replaced its source (CodeMirror has come), so every request the tabs make has been made.
    assertThat(page.locator("#sandbox pre[data-source]")).hasCount(0);
    assertEquals(List.of(), elsewhere, lesson + " asked another site");
    tab(page, "Gist").click();
    Locator wide = page.locator("#gist .table-wrap");
    assertThat(wide.first()).isAttached();   // every bundled lesson has tables
    for (Locator box : wide.all()) {
      if (Boolean.TRUE.equals(box.evaluate("b => b.scrollWidth > b.clientWidth"))) {
        assertTrue(((String) box.evaluate("b => getComputedStyle(b).backgroundImage")).contains("radial-gradient"),
            "a table that scrolls inside its box shows a shadow at its edge");
      }
    }
  }

  /**
   * The first screen: on a phone the tab bar; once a tab is opened the header turns compact and the tab's content
   * (the map) starts on the screen, below the sticky tab bar. The summary stays one tap away.
   */
  @ParameterizedTest(name = "{1} on {0}")
  @MethodSource("screensAndLessons")
  void the_tabs_and_an_opened_tabs_content_are_on_the_first_screen(Screen screen, String lesson) {
    Page page = open(screen);
    page.navigate(url(pathOf(lesson)));
    assertThat(tab(page, "Gist")).hasAttribute("aria-selected", "true");
    assertThat(page.locator(".lesson-lede")).isVisible();
    double tabsBottom = edge(page, "nav.tabs", "bottom");
    assertTrue(tabsBottom <= screen.height, "the tab bar ends at " + tabsBottom + " px of " + screen.height);

    tab(page, "Maps").click();
    assertThat(page.locator(".lesson-header")).hasClass(Pattern.compile("\\bis-compact\\b"));
    assertThat(page.locator(".lesson-lede")).isHidden();
    double map = edge(page, "#maps .map-svg", "top");
    double bar = edge(page, "nav.tabs", "bottom");
    assertTrue(map >= bar && map < screen.height, "the map starts at " + map + " px, under the tab bar at " + bar
        + " px, of " + screen.height);

    Locator about = page.locator(".lesson-more > summary");
    assertThat(about.locator(".when-compact")).hasText("About this lesson");
    assertThat(about.locator(".when-compact")).isVisible();
    assertThat(about.locator(".when-full")).isHidden();
    about.click();
    assertThat(page.locator(".lesson-lede")).isVisible();
    assertThat(page.locator(".lesson-more > div")).isVisible();
  }

  /**
   * The narrowest phone (320x640) and the widest screen (1920x1080), one context each and every lesson in it: the tab
   * bar ends on the first screen, and an opened tab's content starts under it. On the wide screen the home page and
   * every tab do not scroll sideways either (the phone's tabs are tried one by one above).
   */
  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"320, 640, true", "1920, 1080, false"})
  void at_the_narrowest_and_the_widest_size_the_tabs_are_on_the_first_screen(int width, int height, boolean touch) {
    Page page = open(width, height, touch);
    boolean wide = width > 1280;
    if (wide) {
      page.navigate(url("/"));
      assertNoSidewaysScroll(page, "home at " + width + " px");
    }
    for (String lesson : lessons().toList()) {
      page.navigate(url(pathOf(lesson)));
      assertThat(tab(page, "Gist")).hasAttribute("aria-selected", "true");
      double tabsBottom = edge(page, "nav.tabs", "bottom");
      assertTrue(tabsBottom <= height, lesson + ": the tab bar ends at " + tabsBottom + " px of " + height);
      if (wide) {
        for (String name : List.of("Gist", "Q&A", "Sandbox")) {
          tab(page, name).click();
          assertThat(page.locator("[role=tabpanel]:not([hidden]) > h2")).isVisible();
          assertNoSidewaysScroll(page, lesson + " " + name + " tab at " + width + " px");
        }
      }
      tab(page, "Maps").click();
      double map = edge(page, "#maps .map-svg", "top");
      double bar = edge(page, "nav.tabs", "bottom");
      assertTrue(map >= bar && map < height, lesson + ": the map starts at " + map + " px, under the tab bar at " + bar
          + " px, of " + height);
      assertNoSidewaysScroll(page, lesson + " Maps tab at " + width + " px");
    }
  }

  /** On a phone without JavaScript: the summary above the tabs, then every tab's every section, one after another. */
  @ParameterizedTest
  @MethodSource("lessons")
  void without_javascript_the_whole_summary_reads_above_the_tabs_and_every_section_below(String lesson) {
    BrowserContext context = newContext(new Browser.NewContextOptions().setViewportSize(390, 844)
        .setIsMobile(true).setJavaScriptEnabled(false));
    opened.add(context);
    Page page = context.newPage();
    page.navigate(url(pathOf(lesson)));
    assertThat(page.locator(".lesson-lede")).isVisible();
    assertThat(page.locator(".lesson-more > div")).isVisible();
    assertThat(page.locator(".lesson-more > summary .when-full")).hasText("More about this lesson");
    assertThat(page.locator(".lesson-more > summary .when-full")).isVisible();
    assertThat(page.locator(".lesson-more > summary .when-compact")).isHidden();
    assertThat(page.locator("#maps")).isVisible();
    for (Section section : BundledLessons.get(lesson).sections()) {
      assertThat(page.locator("[id='" + section.tab().id() + "/" + section.id() + "'] > .section-head > h3"))
          .hasText(section.title());
    }
    assertNoSidewaysScroll(page, lesson + " without JavaScript");
  }

  /** Speech is a recording fake that takes 3 ms a character, on a paused fake clock the test moves on. */
  private Page reading(Screen screen, String lesson) {
    Page page = open(screen);
    page.clock().install();
    page.addInitScript(VoiceBrowserTest.STUB + "window.__speech.msPerChar = 3;");
    page.navigate(url(pathOf(lesson)));
    page.clock().pauseAt(((Number) page.evaluate("Date.now()")).longValue() + 1000);
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Play").setExact(true)).click();
    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "playing");
    return page;
  }

  private static int spoken(Page page) {
    return ((Number) page.evaluate("__speech.spoken.length")).intValue();
  }

  @ParameterizedTest(name = "{1} on {0}")
  @MethodSource("screensAndLessons")
  void after_ten_seconds_of_reading_the_controls_and_the_sentence_are_in_view(Screen screen, String lesson) {
    Page page = reading(screen, lesson);
    page.clock().runFor(10_000);

    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "playing");
    assertTrue(spoken(page) >= 10, "read " + spoken(page) + " sentences");
    assertTrue(((Number) page.evaluate("scrollY")).intValue() > 0, "the page followed the reading");
    assertTrue(inView(page, "[data-voice-stop]"), "Stop is on screen");
    assertTrue(inView(page, "[data-voice-pause]"), "Pause is on screen");
    // The sentence is neither under the sticky tab bar nor under the controls.
    Boolean clear = (Boolean) page.evaluate("() => { const r = document.querySelector('.voice-sentence.is-reading')"
        + ".getBoundingClientRect(); const tabs = document.querySelector('nav.tabs').getBoundingClientRect();"
        + " const bar = document.querySelector('.voice-buttons').getBoundingClientRect();"
        + " return r.top >= tabs.bottom - 1 && r.bottom <= bar.top + 1; }");
    assertTrue(clear, "the sentence being read is visible between the tab bar and the controls");
  }

  @ParameterizedTest(name = "{1} on {0}")
  @MethodSource("screensAndLessons")
  void switching_tabs_stops_the_reading(Screen screen, String lesson) {
    Page page = reading(screen, lesson);
    page.clock().runFor(2_000);
    tab(page, "Maps").click();
    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "paused");
    int before = spoken(page);
    page.clock().runFor(10_000);
    assertEquals(before, spoken(page), "nothing was read while on the Maps tab");
    assertEquals(null, page.evaluate("__speech.current"));
  }

  /** The stroke of the node's box, given the node's selector. */
  private static final String BORDER = "s => getComputedStyle(document.querySelector(s + ' .map-node-box')).stroke";

  /** On each lesson's first map, its node with the most connections: selecting it dims the most others. */
  @ParameterizedTest(name = "{1} on {0}")
  @MethodSource("screensAndLessons")
  void tapping_a_map_node_opens_its_explanation_in_view_with_readable_labels(Screen screen, String lesson) {
    LessonMap map = BundledLessons.get(lesson).maps().get(0);
    String nodeSelector = "[id='maps/node/" + MapsBrowserTest.mostConnected(map).id() + "']";
    String detailsSelector = "[id='maps/map/" + map.id() + "'] .map-details";
    Page page = open(screen);
    page.navigate(url(pathOf(lesson) + "#maps"));
    Locator node = page.locator(nodeSelector);
    String groupBorder = (String) page.evaluate(BORDER, nodeSelector);
    if (screen.touch) node.tap();
    else node.click();

    Locator details = page.locator(detailsSelector);
    assertThat(details).hasAttribute("data-kind", "node");
    assertTrue(inView(page, detailsSelector), "the explanation is on screen");
    Boolean above = (Boolean) page.evaluate("([n, d]) => document.querySelector(n).getBoundingClientRect().bottom"
        + " <= document.querySelector(d).getBoundingClientRect().top + 1", List.of(nodeSelector, detailsSelector));
    assertTrue(above, "the tapped node is not hidden under its explanation");

    // Every label at 12 px or more on screen, and 4.5:1 or more while dimmed by the selection.
    Number smallest = (Number) page.evaluate("() => Math.min(...[...document.querySelectorAll('.map-svg')]"
        + ".flatMap(svg => { const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
        + " return [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale); }))");
    assertTrue(smallest.doubleValue() >= 12, "smallest label " + smallest + " px");
    Number light = (Number) page.evaluate(LOWEST_DIMMED_CONTRAST);
    assertTrue(light.doubleValue() >= 4.5, "dimmed labels at " + light + ":1 in the light theme");
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
    page.waitForFunction("() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'");
    Number dark = (Number) page.evaluate(LOWEST_DIMMED_CONTRAST);
    assertTrue(dark.doubleValue() >= 4.5, "dimmed labels at " + dark + ":1 in the dark theme");
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.LIGHT));

    details.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Close")).click();
    assertThat(details).not().hasAttribute("data-kind", "node");
    // Explored: the node keeps its group's border and shows a check, which the colour key explains.
    assertThat(node).hasClass(Pattern.compile("\\bis-explored\\b"));
    assertEquals(groupBorder, page.evaluate(BORDER, nodeSelector));
    assertThat(node.locator(".map-explored-badge")).isVisible();
    assertThat(page.locator("[id='maps/map/" + map.id() + "'] .map-legend")).containsText("explored");
    assertEquals(List.of(), AxeScan.seriousViolations(page, lesson + " maps on " + screen));
  }

  /**
   * The lowest contrast of a label dimmed by the selection against what is behind it: a node label against its box
   * (faded over the page), an edge label against its halo in the page's colour.
   */
  static final String LOWEST_DIMMED_CONTRAST = """
      () => {
        const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
        const rgb = (c) => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c; ctx.fillRect(0, 0, 1, 1);
          return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3); };
        const lum = (c) => c.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
          .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
        const pageBg = rgb(getComputedStyle(document.body).backgroundColor);
        const dimmed = [...document.querySelectorAll('.has-selection .map-node:not(.is-selected, .is-neighbour) .map-node-label,'
          + ' .has-selection .map-edge:not(.is-selected, .is-incident) .map-edge-label')];
        if (!dimmed.length) return 0;
        return Math.min(...dimmed.map(label => {
          let behind = pageBg;
          const box = label.closest('.map-node')?.querySelector('.map-node-box');
          if (box) {
            const style = getComputedStyle(box);
            const alpha = Number(style.opacity);
            behind = rgb(style.fill).map((v, i) => v * alpha + pageBg[i] * (1 - alpha));
          }
          return ratio(rgb(getComputedStyle(label).fill), behind);
        }));
      }
      """;
}
