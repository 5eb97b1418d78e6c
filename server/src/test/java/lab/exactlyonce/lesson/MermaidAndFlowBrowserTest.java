package lab.exactlyonce.lesson;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The Mermaid export of every bundled lesson's maps on the page equals the endpoint's and parses with the real Mermaid
 * library (a test-only WebJar, loaded into a blank page of the test's own, never served to users); the stepper of every
 * bundled flow on every path, and the two-phase sink's in detail: choices, keyboard, Back and deep links.
 */
class MermaidAndFlowBrowserTest extends BrowserTest {
  private static final String MERMAID = "/META-INF/resources/webjars/mermaid/11.14.0/dist/mermaid.min.js";
  private static final String PARSE = """
      async text => {
        try {
          const result = await mermaid.parse(text);
          return 'ok:' + result.diagramType;
        } catch (e) {
          return 'error:' + (e && e.message ? e.message : String(e));
        }
      }""";

  private DecisionFlow flow;
  /** A blank page of its own with Mermaid loaded once for the class: loading it is most of what a parse costs. */
  private BrowserContext parserContext;
  private Page parser;

  @BeforeAll
  void readLessonAndMermaid() throws IOException {
    flow = BundledLessons.get("exactly-once").flows().stream().filter(f -> f.id().equals("two-phase-sink"))
        .findFirst().orElseThrow();
    String mermaidJs;
    try (InputStream in = getClass().getResourceAsStream(MERMAID)) {
      if (in == null) throw new IllegalStateException("test dependency org.webjars.npm:mermaid is missing: " + MERMAID);
      mermaidJs = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    parserContext = newContext(new Browser.NewContextOptions());
    parser = parserContext.newPage();
    parser.addScriptTag(new Page.AddScriptTagOptions().setContent(mermaidJs));
    parser.evaluate("() => mermaid.initialize({startOnLoad: false})");
  }

  @AfterAll
  void closeParser() {
    if (parserContext != null) parserContext.close();
  }

  private Locator byId(String id) {
    return page.locator("[id='" + id + "']");
  }

  /** What Mermaid (a test dependency, never shipped, never loaded into the app's pages) says of {@code text}. */
  private String parse(String text) {
    return (String) parser.evaluate(PARSE, text);
  }

  static Stream<String> lessons() {
    return BundledLessons.ids().stream();
  }

  @ParameterizedTest
  @MethodSource("lessons")
  void every_maps_export_on_the_page_equals_the_endpoint_and_parses_with_mermaid(String lessonId) {
    page.navigate(url("/lessons/" + lessonId + "#maps"));

    for (LessonMap map : BundledLessons.get(lessonId).maps()) {
      String shown = byId("maps/map/" + map.id()).locator(".map-mermaid").textContent();
      var served = server.get("/api/lessons/" + lessonId + "/map.mmd?map=" + map.id());

      assertEquals(200, served.statusCode());
      assertEquals(served.body(), shown, "page and endpoint differ for map " + map.id());
      assertEquals("ok:flowchart-v2", parse(shown), "Mermaid rejected map " + map.id() + ":\n" + shown);
    }
  }

  /** Every flow of every bundled lesson. */
  static Stream<Arguments> flows() {
    return BundledLessons.all().stream().flatMap(l -> l.flows().stream().map(f -> arguments(l.id(), f.id())));
  }

  /**
   * Each path from the start to an end, by Next and by each choice at every decision: the stepper shows each step,
   * lists the path walked and says where it ends; Restart goes back to the start.
   */
  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("flows")
  void the_stepper_walks_every_path_of_every_flow_to_its_end(String lessonId, String flowId) {
    DecisionFlow walked = BundledLessons.get(lessonId).flows().stream().filter(f -> f.id().equals(flowId))
        .findFirst().orElseThrow();
    page.navigate(url("/lessons/" + lessonId + "#maps"));
    Locator stepper = byId("maps/flow/" + flowId).locator(".flow-stepper");
    List<List<DecisionFlow.Step>> paths = paths(walked, List.of(step(walked, walked.start())));
    for (List<DecisionFlow.Step> path : paths) {
      for (int i = 0; i < path.size(); i++) {
        DecisionFlow.Step at = path.get(i);
        assertThat(stepper.locator(".flow-current-number")).hasText("Step " + at.number());
        assertThat(stepper.locator(".flow-current-label")).hasText(at.label());
        assertThat(stepper.locator(".flow-path li")).hasCount(i + 1);
        if (i == path.size() - 1) break;
        String to = path.get(i + 1).id();
        if (at.isDecision()) {
          int choice = at.next().stream().map(DecisionFlow.Next::to).toList().indexOf(to);
          assertThat(stepper.locator(".flow-choice")).hasCount(at.next().size());
          stepper.locator(".flow-choice").nth(choice).click();
        } else {
          stepper.locator(".flow-next-button").click();
        }
      }
      assertThat(stepper.locator(".flow-end")).isVisible();
      assertThat(stepper.locator(".flow-path li").last()).hasAttribute("aria-current", "step");
      stepper.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Restart")).click();
    }
  }

  /** The paths from the last step of {@code walked} so far to an end of the flow (flows have no cycles). */
  private static List<List<DecisionFlow.Step>> paths(DecisionFlow flow, List<DecisionFlow.Step> walked) {
    DecisionFlow.Step last = walked.get(walked.size() - 1);
    if (last.next().isEmpty()) return List.of(walked);
    List<List<DecisionFlow.Step>> out = new ArrayList<>();
    for (DecisionFlow.Next next : last.next()) {
      List<DecisionFlow.Step> longer = new ArrayList<>(walked);
      longer.add(step(flow, next.to()));
      out.addAll(paths(flow, longer));
    }
    return out;
  }

  private static DecisionFlow.Step step(DecisionFlow flow, String id) {
    return flow.steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void hostile_labels_and_ids_still_parse_and_broken_text_is_rejected() {
    try (TestServer fixture = MapsFixture.server()) {
      for (LessonMap map : MapsFixture.lesson().maps()) {
        String text = fixture.get("/api/lessons/exactly-once/map.mmd?map=" + map.id()).body();
        assertEquals("ok:flowchart-v2", parse(text), "Mermaid rejected fixture map " + map.id() + ":\n" + text);
      }
    }
    // The check can fail: unescaped quotes and an unclosed shape are syntax errors.
    assertTrue(parse("flowchart LR\n  a(\"say \"hi\"\")\n  a -->|\"x\"| b[[(\n").startsWith("error:"));
    assertNotEquals("ok:flowchart-v2", parse("flowchart LR\n  a --> \n  end(\"x\")\n"));
  }

  @Test
  void the_stepper_follows_checkpoint_complete_to_the_commit_and_crash_to_abort_and_replay() {
    page.navigate(url("/lessons/exactly-once#maps"));
    Locator stepper = byId("maps/flow/two-phase-sink").locator(".flow-stepper");
    Locator label = stepper.locator(".flow-current-label");
    Locator next = stepper.locator(".flow-next-button");
    DecisionFlow.Step first = step(flow.start());

    assertThat(stepper).isVisible();
    assertThat(stepper.locator(".flow-current-number")).hasText("Step " + first.number());
    assertThat(label).hasText(first.label());
    assertThat(stepper.locator(".flow-back")).isDisabled();

    DecisionFlow.Step decision = walkToDecision(() -> next.click());
    assertThat(label).hasText(decision.label());
    assertThat(next).isHidden();
    DecisionFlow.Next complete = decision.next().get(0);
    DecisionFlow.Next crash = decision.next().get(1);
    Locator choices = stepper.locator(".flow-choice");
    assertThat(choices).hasCount(2);
    assertThat(choices.nth(0)).containsText(complete.label());
    assertThat(choices.nth(0)).containsText("7a. " + step(complete.to()).label());
    assertThat(choices.nth(1)).containsText(crash.label());
    assertThat(choices.nth(1)).containsText("7b. " + step(crash.to()).label());

    choices.nth(0).click();
    assertThat(stepper.locator(".flow-current-number")).hasText("Step 7a");
    assertThat(label).hasText(step(complete.to()).label());
    assertThat(stepper.locator(".flow-path li")).hasCount(7);
    assertThat(stepper.locator(".flow-path li").last()).hasText("7a. " + step(complete.to()).label());
    assertThat(stepper.locator(".flow-end")).isVisible();

    stepper.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Restart")).click();
    assertThat(label).hasText(first.label());
    assertThat(stepper.locator(".flow-path li")).hasCount(1);

    // The other branch, by keyboard only: Enter on Next, then focus lands on the first choice; Tab to crash.
    next.focus();
    walkToDecision(() -> page.keyboard().press("Enter"));
    assertThat(choices.nth(0)).isFocused();
    page.keyboard().press("Tab");
    page.keyboard().press("Enter");
    assertThat(stepper.locator(".flow-current-number")).hasText("Step 7b");
    assertThat(label).hasText(step(crash.to()).label());
    assertThat(stepper.locator(".flow-path li").last()).hasText("7b. " + step(crash.to()).label());
    assertThat(stepper.locator(".flow-path li").last()).hasAttribute("aria-current", "step");

    stepper.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Back")).click();
    assertThat(label).hasText(decision.label());
    assertThat(stepper.locator(".flow-current")).hasAttribute("aria-live", "polite");
  }

  @Test
  void a_deep_link_to_a_step_opens_the_stepper_there() {
    DecisionFlow.Step abort = flow.steps().stream().filter(s -> s.number().equals("7b")).findFirst().orElseThrow();
    page.navigate(url("/lessons/exactly-once#maps/flow/two-phase-sink/" + abort.id()));

    Locator stepper = byId("maps/flow/two-phase-sink").locator(".flow-stepper");
    assertThat(stepper.locator(".flow-current-label")).hasText(abort.label());
    assertThat(stepper.locator(".flow-path li")).hasCount(7);
  }

  /** Presses Next until the decision step, checking each step on the way. */
  private DecisionFlow.Step walkToDecision(Runnable pressNext) {
    Locator label = byId("maps/flow/two-phase-sink").locator(".flow-current-label");
    DecisionFlow.Step step = step(flow.start());
    List<String> seen = new ArrayList<>();
    while (!step.isDecision()) {
      assertThat(label).hasText(step.label());
      seen.add(step.number());
      pressNext.run();
      step = step(step.next().get(0).to());
    }
    assertThat(label).hasText(step.label());
    assertEquals(List.of("1", "2", "3", "4", "5"), seen);
    assertEquals("6", step.number());
    return step;
  }

  private DecisionFlow.Step step(String id) {
    return step(flow, id);
  }
}
