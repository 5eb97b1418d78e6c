package lab.exactlyonce.lesson;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.OwnContexts;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Maps tab in a real browser: selecting nodes and edges, keyboard, deep links, copy (on the exactly-once lesson's
 * architecture map); the maps and flows as text without JavaScript and the accessibility scan on every bundled lesson.
 */
class MapsBrowserTest extends BrowserTest {
  private Lesson lesson;
  private LessonMap architecture;

  @BeforeAll
  void readLesson() {
    lesson = LessonCatalog.load(ContentFolder.resolve(Optional.empty(), "lessons"),
        SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn).require("exactly-once");
    architecture = lesson.maps().stream().filter(m -> m.id().equals("architecture")).findFirst().orElseThrow();
  }

  @Override
  protected Browser.NewContextOptions newContextOptions() {
    return super.newContextOptions().setPermissions(List.of("clipboard-read", "clipboard-write"));
  }

  private Locator byId(String id) {
    return page.locator("[id='" + id + "']");
  }

  private Locator panel() {
    return byId("maps/map/architecture").locator(".map-details");
  }

  private LessonMap.Node node(String id) {
    return architecture.nodes().stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
  }

  private LessonMap.Edge edge(String id) {
    return architecture.edges().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
  }

  /** The Markdown source as the reader sees it: without emphasis and code marks, whitespace collapsed. */
  private static String plain(String markdown) {
    return markdown.replaceAll("`|\\*\\*?", "").replaceAll("\\s+", " ").strip();
  }

  private void openMaps(String hash) {
    page.navigate(url("/lessons/exactly-once#" + hash));
    assertThat(byId("maps")).isVisible();
  }

  private String activeId() {
    return (String) page.evaluate("() => document.activeElement.id");
  }

  @Test
  void clicking_a_node_shows_why_it_exists_highlights_it_and_puts_it_in_the_url() {
    openMaps("maps");
    assertThat(panel()).containsText(MapViews.PANEL_HINT);

    byId("maps/node/sink").click();

    assertThat(panel()).containsText(node("sink").label());
    assertThat(panel()).containsText(plain(node("sink").why()));
    assertThat(byId("maps/node/sink")).hasAttribute("aria-pressed", "true");
    assertThat(byId("maps/node/sink")).hasClass(Pattern.compile("\\bis-selected\\b"));
    assertThat(byId("maps/edge/sink-to-billing")).hasClass(Pattern.compile("\\bis-incident\\b"));
    assertTrue(page.url().endsWith("#maps/node/sink"), page.url());
  }

  @Test
  void tab_to_a_node_and_enter_selects_it_and_escape_clears() {
    openMaps("maps");
    byId("maps/map/architecture/title").click();  // moves the sequential focus starting point to the map

    page.keyboard().press("Tab");
    assertEquals("maps/node/" + architecture.nodes().get(0).id(), activeId());
    page.keyboard().press("Enter");

    LessonMap.Node first = architecture.nodes().get(0);
    assertThat(panel()).containsText(plain(first.why()));
    assertThat(byId("maps/node/" + first.id())).hasAttribute("aria-pressed", "true");

    page.keyboard().press("Escape");
    assertThat(panel()).containsText(MapViews.PANEL_HINT);
    assertThat(byId("maps/node/" + first.id())).hasAttribute("aria-pressed", "false");
    assertTrue(page.url().endsWith("#maps"), page.url());
  }

  @Test
  void selecting_an_edge_shows_protocol_direction_effect_and_consequence() {
    openMaps("maps");
    LessonMap.Edge edge = edge("billing-to-consumer");

    byId("maps/edge/billing-to-consumer").locator(".map-edge-label").click();

    assertThat(panel()).containsText(node("billing-topic").label() + " → " + node("billing-consumer").label() + ": " + edge.label());
    for (String field : List.of("Protocol", "Direction", "Effect", "Consequence")) assertThat(panel()).containsText(field);
    assertThat(panel()).containsText(plain(edge.protocol()));
    assertThat(panel()).containsText(plain(edge.direction()));
    assertThat(panel()).containsText(plain(edge.effect()));
    assertThat(panel()).containsText(plain(edge.consequence()));
    assertTrue(page.url().endsWith("#maps/edge/billing-to-consumer"), page.url());
  }

  @Test
  void edges_are_buttons_a_screen_reader_can_name_and_space_selects_one() {
    openMaps("maps");
    LessonMap.Edge edge = edge("sink-to-payment-topic");
    String name = node("sink").label() + " → " + node("payment-topic").label() + ": " + edge.label();

    Locator button = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
    assertThat(button).hasCount(1);
    button.focus();
    page.keyboard().press("Space");

    assertThat(panel()).containsText(plain(edge.consequence()));
    assertThat(byId("maps/edge/sink-to-payment-topic")).hasAttribute("aria-pressed", "true");
  }

  @Test
  void arrow_keys_move_focus_to_the_nearest_node_in_that_direction() {
    openMaps("maps");
    byId("maps/node/source").focus();

    page.keyboard().press("ArrowRight");
    assertEquals("maps/node/operators", activeId());
    page.keyboard().press("ArrowUp");
    assertEquals("maps/node/checkpoint-coordinator", activeId());
    page.keyboard().press("ArrowRight");
    assertEquals("maps/node/txn-coordinator", activeId());
    page.keyboard().press("ArrowDown");
    assertEquals("maps/node/billing-topic", activeId());
    page.keyboard().press("ArrowRight");  // nothing further right: focus stays
    assertEquals("maps/node/billing-topic", activeId());
    assertThat(byId("maps/map/architecture").locator(".map-keys")).isVisible();
  }

  @Test
  void a_deep_link_to_a_node_selects_it() {
    openMaps("maps/node/payment-worker");

    assertThat(byId("maps/node/payment-worker")).hasAttribute("aria-pressed", "true");
    assertThat(panel()).containsText(plain(node("payment-worker").why()));
    assertThat(byId("maps/node/payment-worker")).isInViewport();
  }

  @Test
  void a_deep_link_to_an_edge_selects_it() {
    openMaps("maps/edge/worker-to-payment-api");

    assertThat(byId("maps/edge/worker-to-payment-api")).hasAttribute("aria-pressed", "true");
    assertThat(panel()).containsText(plain(edge("worker-to-payment-api").consequence()));
  }

  @Test
  void a_route_event_from_the_tabs_selects_a_node_on_the_other_map() {
    openMaps("maps");
    LessonMap.Node target = lesson.maps().get(1).nodes().get(0);

    page.evaluate("id => document.dispatchEvent(new CustomEvent('lesson:route', {detail: {tab: 'maps', path: ['node', id]}}))",
        target.id());

    assertThat(byId("maps/node/" + target.id())).hasAttribute("aria-pressed", "true");
    assertThat(byId("maps/map/" + lesson.maps().get(1).id()).locator(".map-details")).containsText(plain(target.why()));
  }

  @Test
  void copy_puts_the_mermaid_text_on_the_clipboard_and_says_so() {
    openMaps("maps");
    Locator export = byId("maps/map/architecture").locator(".map-export");

    export.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Copy")).click();

    assertThat(export.locator(".map-copy-status")).hasText("Copied");
    assertEquals(MermaidExport.of(architecture), page.evaluate("() => navigator.clipboard.readText()"));
    assertThat(export.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Download .mmd")))
        .hasAttribute("download", "exactly-once-architecture.mmd");
  }

  static Stream<String> lessons() {
    return BundledLessons.ids().stream();
  }

  /** The map's node with the most edges (the first of those): selecting it lights up the most and dims the most. */
  static LessonMap.Node mostConnected(LessonMap map) {
    return map.nodes().stream().max(Comparator.comparingLong((LessonMap.Node n) -> map.edges().stream()
        .filter(e -> e.from().equals(n.id()) || e.to().equals(n.id())).count())
        .thenComparing(n -> -map.nodes().indexOf(n))).orElseThrow();
  }

  @OwnContexts
  @ParameterizedTest
  @MethodSource("lessons")
  void without_javascript_every_node_edge_and_step_is_readable_as_text(String id) {
    Lesson bundled = BundledLessons.get(id);
    try (var noJs = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
      var plainPage = noJs.newPage();
      plainPage.navigate(url("/lessons/" + id + "#maps"));
      for (LessonMap map : bundled.maps()) {
        Locator text = plainPage.locator("[id='maps/map/" + map.id() + "'] .map-text");
        assertThat(text).hasAttribute("open", "");
        for (LessonMap.Node n : map.nodes()) assertThat(text).containsText(plain(n.why()));
        for (LessonMap.Edge e : map.edges()) assertThat(text).containsText(plain(e.consequence()));
        // Controls that need JavaScript stay out of the way; the download link works without it.
        Locator shown = plainPage.locator("[id='maps/map/" + map.id() + "']");
        assertThat(shown.locator(".map-copy")).isHidden();
        assertThat(shown.locator(".map-keys")).isHidden();
        assertThat(shown.locator(".map-details")).isHidden();
        assertThat(shown.locator(".map-download")).isVisible();
      }
      for (DecisionFlow flow : bundled.flows()) {
        Locator steps = plainPage.locator("[id='maps/flow/" + flow.id() + "'] .flow-steps > li");
        assertThat(steps).hasCount(flow.steps().size());
        assertThat(steps.locator(".flow-step-label"))
            .hasText(flow.steps().stream().map(DecisionFlow.Step::label).toArray(String[]::new));
        assertThat(plainPage.locator("[id='maps/flow/" + flow.id() + "'] .flow-stepper")).isHidden();
      }
    }
  }

  /** Each lesson's Maps tab with its busiest node selected and each flow's stepper at its first decision. */
  @ParameterizedTest
  @MethodSource("lessons")
  void the_maps_tab_has_no_serious_or_critical_accessibility_violations_with_a_selection_and_at_a_decision(String id) {
    Lesson bundled = BundledLessons.get(id);
    page.navigate(url("/lessons/" + id + "#maps/node/" + mostConnected(bundled.maps().get(0)).id()));
    assertThat(byId("maps")).isVisible();
    for (DecisionFlow flow : bundled.flows()) {
      Locator stepper = byId("maps/flow/" + flow.id()).locator(".flow-stepper");
      DecisionFlow.Step step = flow.steps().stream().filter(s -> s.id().equals(flow.start())).findFirst().orElseThrow();
      while (step.next().size() == 1) {
        assertThat(stepper.locator(".flow-current-label")).hasText(step.label());
        stepper.locator(".flow-next-button").click();
        String to = step.next().get(0).to();
        step = flow.steps().stream().filter(s -> s.id().equals(to)).findFirst().orElseThrow();
      }
      assertThat(stepper.locator(".flow-choice")).hasCount(step.next().size());
    }
    AxeScan.inject(page);

    Object violations = page.evaluate("""
        async () => {
          const result = await axe.run(document.getElementById('maps'));
          return result.violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '));
        }""");

    assertEquals(List.of(), violations, id);
  }

  @Test
  void a_nodes_panel_lists_its_connections_and_following_one_selects_that_edge() {
    openMaps("maps/node/payment-topic");
    LessonMap.Edge edge = edge("payment-topic-to-worker");
    String name = "to " + node("payment-worker").label() + ": " + edge.label();
    long incident = architecture.edges().stream()
        .filter(e -> e.from().equals("payment-topic") || e.to().equals("payment-topic")).count();

    assertThat(panel().locator(".map-connections button")).hasCount((int) incident);
    assertThat(panel().locator(".map-connections button").first())
        .hasText("from " + node("sink").label() + ": " + edge("sink-to-payment-topic").label());
    panel().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(name).setExact(true)).click();

    assertThat(byId("maps/edge/payment-topic-to-worker")).hasAttribute("aria-pressed", "true");
    assertThat(byId("maps/edge/payment-topic-to-worker")).isFocused();
    assertThat(panel()).containsText(plain(edge.effect()));
  }

  @Test
  void pressing_a_selected_node_again_clears_the_selection() {
    openMaps("maps");
    Locator sink = byId("maps/node/sink");

    sink.click();
    assertThat(sink).hasAttribute("aria-pressed", "true");
    sink.click();

    assertThat(sink).hasAttribute("aria-pressed", "false");
    assertThat(panel()).containsText(MapViews.PANEL_HINT);
  }
}
