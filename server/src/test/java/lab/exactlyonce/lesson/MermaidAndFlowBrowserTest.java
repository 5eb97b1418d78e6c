package lab.exactlyonce.lesson;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Mermaid export on the page equals the endpoint's and parses with the real Mermaid library (a test-only
 * WebJar, injected into the page, never served to users); the two-phase sink stepper on both branches.
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

  private Lesson lesson;
  private DecisionFlow flow;
  private String mermaidJs;

  @BeforeAll
  void readLessonAndMermaid() throws IOException {
    lesson = LessonCatalog.load(ContentFolder.resolve(Optional.empty(), "lessons"),
        SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn).require("exactly-once");
    flow = lesson.flows().stream().filter(f -> f.id().equals("two-phase-sink")).findFirst().orElseThrow();
    try (InputStream in = getClass().getResourceAsStream(MERMAID)) {
      if (in == null) throw new IllegalStateException("test dependency org.webjars.npm:mermaid is missing: " + MERMAID);
      mermaidJs = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private Locator byId(String id) {
    return page.locator("[id='" + id + "']");
  }

  /**
   * Mermaid (a test dependency, never shipped) draws with inline styles, which the pages' policy refuses: this test
   * checks the export's syntax, so its pages run without the policy. Every other browser test keeps it on.
   */
  @Override
  protected Browser.NewContextOptions newContextOptions() {
    return super.newContextOptions().setBypassCSP(true);
  }

  private void loadMermaid() {
    page.addScriptTag(new Page.AddScriptTagOptions().setContent(mermaidJs));
    page.evaluate("() => mermaid.initialize({startOnLoad: false})");
  }

  private String parse(String text) {
    return (String) page.evaluate(PARSE, text);
  }

  @Test
  void every_maps_export_on_the_page_equals_the_endpoint_and_parses_with_mermaid() {
    page.navigate(url("/lessons/exactly-once#maps"));
    loadMermaid();

    assertTrue(lesson.maps().size() >= 2, "the lesson should have its architecture and lesson maps");
    for (LessonMap map : lesson.maps()) {
      String shown = byId("maps/map/" + map.id()).locator(".map-mermaid").textContent();
      var served = server.get("/api/lessons/exactly-once/map.mmd?map=" + map.id());

      assertEquals(200, served.statusCode());
      assertEquals(served.body(), shown, "page and endpoint differ for map " + map.id());
      assertEquals("ok:flowchart-v2", parse(shown), "Mermaid rejected map " + map.id() + ":\n" + shown);
    }
  }

  @Test
  void hostile_labels_and_ids_still_parse_and_broken_text_is_rejected() {
    page.navigate(url("/lessons/exactly-once#maps"));
    loadMermaid();

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
    return flow.steps().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }
}
