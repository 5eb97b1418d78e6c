package lab.exactlyonce.sandbox;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.ReducedMotion;
import lab.exactlyonce.AxeScan;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay lab in Chromium against the real sandbox: the sink demo's trace drawn as a timeline (stepping, scrubbing,
 * keyboard, reduced motion, a phone-sized screen), the knobs re-running the snippet, and axe on the Sandbox tab.
 */
class ReplayBrowserTest extends SandboxTabTest {
  static final String SEED_OUTPUT =
      "AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n";

  /** Opens the Sandbox tab, runs the sink demo and returns its widget once the timeline is shown. */
  Locator runSinkDemo() {
    Locator demo = openWidget("sink-demo");
    assertThat(demo.locator("[data-knobs]")).isVisible();
    demo.locator("[data-run]").click();
    assertThat(demo.locator("[data-stdout]")).hasText(SEED_OUTPUT, SLOW);
    assertThat(demo.locator("[data-timeline]")).isVisible();
    return demo;
  }

  static Locator now(Locator demo) {
    return demo.locator("[data-timeline-now]");
  }

  static Locator lane(Locator demo, String name) {
    return demo.locator("[data-lane='" + name + "'] .timeline-lane-summary");
  }

  static List<String> keys(Locator chips) {
    return chips.all().stream().map(c -> c.getAttribute("data-key")).toList();
  }

  @Test
  void the_sink_demo_draws_its_trace_steps_to_the_crash_and_scrubs_to_the_end() {
    Locator demo = runSinkDemo();
    assertThat(now(demo)).hasText("t=1: the source reads o1 at offset 0");
    assertThat(demo.locator("[data-timeline-back]")).isDisabled();
    assertThat(demo.locator(".tl-event:not(.tl-future)")).hasCount(1);

    Locator forward = demo.locator("[data-timeline-forward]");
    for (int i = 0; i < 17; i++) forward.click();
    assertThat(now(demo)).hasText("t=18: AppendSink writes o3 (offset 2) \u2014 visible");
    for (int i = 0; i < 9; i++) forward.click();
    assertThat(now(demo)).hasText("t=27: the job crashes (crash after 4 records)");
    // At the crash the two-phase sink holds o3 and o4 in its open transaction: written, not visible.
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='TwoPhaseSink'].tl-invisible")));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 not yet visible");
    assertThat(lane(demo, "AppendSink")).hasText("4 visible rows");

    demo.locator("[data-timeline-scrubber]").fill("54");   // the last event
    assertThat(now(demo)).hasText("t=55: a read_committed consumer reads o5 = 50");
    assertThat(forward).isDisabled();
    assertThat(lane(demo, "AppendSink")).hasText("7 visible rows · duplicates: o3, o4");
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='AppendSink'].tl-duplicate")));
    assertThat(lane(demo, "UpsertSink")).hasText("5 visible rows");
    assertEquals(List.of(), keys(demo.locator("[data-sink='UpsertSink'].tl-duplicate")));
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='UpsertSink'].tl-overwritten")));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("5 visible rows · 2 aborted");
    Locator aborted = demo.locator("[data-sink='TwoPhaseSink'].tl-aborted");
    assertEquals(List.of("o3", "o4"), keys(aborted));
    assertThat(aborted.first().locator(".tl-strike")).isVisible();
    assertEquals("line-through", aborted.first().locator(".tl-chip-text")
        .evaluate("t => getComputedStyle(t).textDecorationLine"));
    // The readers of the two-phase sink: read_uncommitted saw the aborted rows, read_committed never did.
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-consumer='read_uncommitted'].tl-aborted")));
    assertThat(lane(demo, "read_uncommitted")).hasText("saw o1, o2, o3 (aborted), o4 (aborted), o3, o4, o5");
    assertThat(lane(demo, "read_committed")).hasText("saw o1, o2, o3, o4, o5");
  }

  @Test
  void the_transaction_demo_shows_what_each_isolation_level_read() {
    page.navigate(url("/lessons/exactly-once#sandbox"));
    Locator demo = page.locator("[id='sandbox/txn-dedupe-demo']");
    assertThat(demo.locator(".CodeMirror")).isVisible();
    demo.locator("[data-run]").click();
    assertThat(demo.locator("[data-timeline]")).isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(20_000));
    demo.locator("[data-timeline-drawing]").focus();
    page.keyboard().press("End");
    assertThat(lane(demo, "log")).hasText("4 visible rows · 2 aborted");
    assertEquals(List.of("t2", "t2"), keys(demo.locator("[data-sink='log'].tl-aborted")));
    assertThat(lane(demo, "read_uncommitted")).hasText("saw t1, t1, t2 (aborted), t2 (aborted), t3, t3");
    assertThat(lane(demo, "read_committed")).hasText("saw t1, t1, t3, t3");
    // e1 at t=0 and e1 at t=90 are two different records of the stream, so no duplicate is flagged.
    assertThat(lane(demo, "dedupe")).hasText("4 visible rows");
  }

  @Test
  void the_timeline_works_from_the_keyboard() {
    Locator demo = runSinkDemo();
    demo.locator("[data-timeline-forward]").focus();
    page.keyboard().press("Enter");
    page.keyboard().press("Space");
    assertThat(now(demo)).hasText("t=3: UpsertSink writes o1 (offset 0) \u2014 visible");
    page.keyboard().press("Shift+Tab");   // to Play
    page.keyboard().press("Shift+Tab");   // to Step back
    page.keyboard().press("Enter");
    assertThat(now(demo)).hasText("t=2: AppendSink writes o1 (offset 0) \u2014 visible");

    Locator scrubber = demo.locator("[data-timeline-scrubber]");
    scrubber.focus();
    page.keyboard().press("ArrowRight");
    assertThat(now(demo)).hasText(
        "t=3: UpsertSink writes o1 (offset 0) \u2014 visible");
    page.keyboard().press("End");
    assertThat(now(demo)).hasText(Pattern.compile("^t=55: "));
    assertEquals("t=55: a read_committed consumer reads o5 = 50",
        scrubber.getAttribute("aria-valuetext"));
    page.keyboard().press("Home");
    assertThat(now(demo)).hasText("t=1: the source reads o1 at offset 0");

    // Space on the focused drawing plays and pauses; the arrow keys step.
    Locator drawing = demo.locator("[data-timeline-drawing]");
    drawing.focus();
    page.keyboard().press("Space");
    assertThat(demo.locator("[data-timeline]")).hasAttribute("data-playing", "true");
    assertThat(demo.locator("[data-timeline-play]")).hasText("Pause");
    assertThat(now(demo)).hasText(Pattern.compile("^t=[2-9]"));
    page.keyboard().press("Space");
    assertThat(demo.locator("[data-timeline-play]")).hasText("Play");
    String paused = now(demo).textContent();
    page.waitForTimeout(900);
    assertEquals(paused, now(demo).textContent(), "paused means no more steps");
    page.keyboard().press("End");
    page.keyboard().press("ArrowLeft");
    assertThat(now(demo)).hasText(Pattern.compile("^t=54: "));
  }

  @Test
  void changing_a_knob_runs_the_snippet_again_and_redraws_the_timeline() {
    Locator demo = runSinkDemo();
    Locator crashAfter = demo.getByLabel("Crash after this many records");
    assertThat(crashAfter).hasValue("4");
    assertThat(demo.locator("[data-knobs]")).containsText("CRASH_AFTER, 1 to 5, default 4");
    crashAfter.fill("3");
    assertThat(demo.locator("[data-stdout]")).hasText(
        "AppendSink rows=6 sum=180 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n", SLOW);
    assertThat(demo.locator("[data-differs]")).isVisible();
    assertThat(now(demo)).hasText("t=1: the source reads o1 at offset 0");
    assertThat(demo.locator("[data-timeline-scrubber]")).hasAttribute("max", "49");
    assertThat(demo.locator(".tl-crash")).hasCount(1);
    demo.locator("[data-timeline-scrubber]").fill("21");
    assertThat(now(demo)).hasText("t=22: the job crashes (crash after 3 records)");
    demo.locator("[data-timeline-scrubber]").fill("49");
    assertThat(lane(demo, "AppendSink")).hasText("6 visible rows · duplicates: o3");

    demo.locator("[data-knobs-reset]").click();
    assertThat(crashAfter).hasValue("4");
    assertThat(demo.locator("[data-stdout]")).hasText(SEED_OUTPUT, SLOW);
    assertThat(demo.locator("[data-timeline-scrubber]")).hasAttribute("max", "54");
  }

  @Test
  void crashing_after_the_pre_commit_makes_recovery_commit_the_pre_committed_transaction() {
    Locator demo = runSinkDemo();
    Locator box = demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before its commit");
    assertThat(box).not().isChecked();
    box.check();
    assertThat(demo.locator("[data-stdout]")).hasText(
        "AppendSink rows=5 sum=150 OK\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n", SLOW);
    Locator scrubber = demo.locator("[data-timeline-scrubber]");
    scrubber.fill("29");
    assertThat(now(demo)).hasText("t=30: the job crashes (crash after checkpoint 2 completed, before its commit)");
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 not yet visible");
    demo.locator("[data-timeline-forward]").click();
    assertThat(now(demo)).hasText("t=31: TwoPhaseSink commits transaction txn-2: its rows become visible");
    assertThat(lane(demo, "TwoPhaseSink")).hasText("4 visible rows");
  }

  @Test
  void reduced_motion_turns_the_animation_off() {
    Locator demo = runSinkDemo();
    Locator firstColumn = demo.locator(".tl-event").first();
    assertEquals("full", demo.locator("[data-timeline]").getAttribute("data-motion"));
    assertTrue(((String) firstColumn.evaluate("g => getComputedStyle(g).transitionDuration")).startsWith("0.3s"));

    page.emulateMedia(new Page.EmulateMediaOptions().setReducedMotion(ReducedMotion.REDUCE));
    assertThat(demo.locator("[data-timeline]")).hasAttribute("data-motion", "reduce");
    assertEquals("0s", firstColumn.evaluate("g => getComputedStyle(g).transitionDuration"));
    demo.locator("[data-timeline-scrubber]").fill("30");
    // An instant step: the crash column is fully drawn at once.
    assertEquals("1", demo.locator(".tl-crash").evaluate("g => getComputedStyle(g).opacity"));
  }

  @Test
  void on_a_phone_the_timeline_scrolls_sideways_inside_itself() {
    context.close();
    context = browser.newContext(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true));
    page = context.newPage();
    page.onConsoleMessage(msg -> {
      if ("error".equals(msg.type())) consoleErrors.add(msg.text());
    });
    Locator demo = runSinkDemo();
    Locator drawing = demo.locator("[data-timeline-drawing]");
    assertTrue((Boolean) drawing.evaluate("d => d.scrollWidth > d.clientWidth"), "the drawing scrolls");
    assertTrue((Boolean) page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"),
        "the page itself does not scroll sideways");
    demo.locator("[data-timeline-scrubber]").fill("54");
    // The drawing scrolls smoothly: wait (at most 5 s) for the last event to come into view rather than sampling
    // the first frame of the animation.
    page.waitForFunction("d => d.scrollLeft > 0", drawing.elementHandle(),
        new Page.WaitForFunctionOptions().setTimeout(5_000));
    assertTrue((Double.parseDouble(String.valueOf(drawing.evaluate("d => d.scrollLeft")))) > 0,
        "the last event scrolled into view");
  }

  @Test
  void the_sandbox_tab_with_a_timeline_and_checked_exercise_has_no_serious_accessibility_violations() {
    Locator demo = runSinkDemo();
    demo.locator("[data-timeline-scrubber]").fill("30");
    Locator exercise = page.locator("[id='sandbox/exercise/exactly-once-append']");
    exercise.locator("[data-check]").click();
    assertThat(status(exercise)).hasText(Pattern.compile("^Not passed: "), SLOW);
    List<String> light = AxeScan.seriousViolations(page, "sandbox tab with timeline (light)");
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(com.microsoft.playwright.options.ColorScheme.DARK));
    List<String> dark = AxeScan.seriousViolations(page, "sandbox tab with timeline (dark)");
    assertEquals(List.of(), light, String.join("\n", light));
    assertEquals(List.of(), dark, String.join("\n", dark));
  }

  Locator exercise(String id) {
    return openWidget("exercise/" + id);
  }

  static Locator status(Locator exercise) {
    return exercise.locator("[data-status]");
  }

  @Test
  void the_append_exercise_starter_fails_with_a_verdict_naming_the_duplicate() {
    Locator exercise = exercise("exactly-once-append");
    assertThat(exercise.locator(".fix-exercise-name")).hasText("Make the append sink exactly-once");
    assertThat(exercise).containsText("a replay appends o3 and o4 a second time");
    exercise.locator("[data-check]").click();
    assertThat(status(exercise)).hasText(Pattern.compile("^Not passed: \\d+ of \\d+ scenarios failed$"), SLOW);
    Locator crashAfterO4 = exercise.locator("[data-scenario='crash after o4, checkpoints every 2']");
    assertThat(crashAfterO4).hasAttribute("data-passed", "false");
    assertThat(crashAfterO4.locator(".fix-exercise-scenario-name")).hasText("\u2717 Failed: crash after o4, checkpoints every 2");
    assertEquals(List.of("duplicate write of o3 after replay from offset 2", "duplicate write of o4 after replay from offset 2"),
        crashAfterO4.locator(".fix-exercise-verdict").allTextContents());
    assertThat(exercise.locator("[data-scenario='no crash, checkpoints every 2'] .fix-exercise-scenario-name"))
        .hasText("\u2713 Passed: no crash, checkpoints every 2");
    assertThat(exercise.locator("[data-exercise-passed]")).isHidden();
  }

  @Test
  void the_reference_solution_passes_gets_a_checkmark_and_records_exercise_passed() throws Exception {
    String solution = Files.readString(Paths.get(getClass().getResource("/exercise-solutions/exactly-once-append.java").toURI()));
    Locator exercise = exercise("exactly-once-append");
    exercise.locator(".CodeMirror").evaluate("(cm, text) => cm.CodeMirror.setValue(text)", solution);
    Response event = page.waitForResponse(r -> r.url().endsWith("/api/events") && r.request().postData() != null
        && r.request().postData().contains("\"exercise.passed\""), () -> exercise.locator("[data-check]").click());
    assertEquals(200, event.status(), event.text());
    assertTrue(event.text().contains("\"item\":\"exactly-once-append\""), event.text());
    assertThat(status(exercise)).hasText(Pattern.compile("^Passed: all \\d+ scenarios hold · \\d+ ms$"));
    assertThat(exercise.locator("[data-exercise-passed]")).isVisible();
    assertThat(exercise.locator("[data-exercise-passed]")).hasText("\u2713 passed");
    assertThat(exercise.locator("[data-passed='false']")).hasCount(0);
    assertTrue(exercise.locator("[data-passed='true']").count() > 5);
  }

  @Test
  void a_compile_error_in_an_exercise_is_listed_and_marked_at_its_line() {
    Locator exercise = exercise("exactly-once-append");
    String starter = editorText(exercise);
    int lines = starter.split("\n", -1).length;
    typeAtEnd(exercise, "oops");
    page.keyboard().press("Control+Enter");
    assertThat(status(exercise)).hasText(Pattern.compile("^Compile error \\(line " + lines + "\\)$"), SLOW);
    assertThat(exercise.locator("[data-diagnostics] li").first()).containsText("Line " + lines);
    Locator marked = exercise.locator(".CodeMirror-code > div").nth(lines - 1);
    assertThat(marked.locator(".sandbox-error-line")).hasCount(1);
    assertThat(marked.locator(".sandbox-marker")).hasCount(1);
    exercise.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Reset").setExact(true)).click();
    assertThat(status(exercise)).hasText("Reset to the starter code.");
    assertThat(exercise.locator(".sandbox-error-line")).hasCount(0);
    assertEquals(starter, editorText(exercise));
  }
}
