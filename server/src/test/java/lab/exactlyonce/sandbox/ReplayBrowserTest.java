package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.ReducedMotion;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.OwnContexts;
import lab.exactlyonce.ReferenceSolutions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replay lab in Chromium against the real sandbox: the sink demo's trace drawn as a timeline (stepping, scrubbing,
 * keyboard, reduced motion, a phone-sized screen), the knobs re-running the snippet, and axe on the Sandbox tab.
 */
class ReplayBrowserTest extends SandboxTabTest {
  static final String SEED_OUTPUT =
      "AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n";

  /** The trace of the last run a test waited for with {@link #traceOf}. */
  JsonNode trace;

  /** Opens the Sandbox tab, runs the sink demo and returns its widget once the timeline is shown. */
  Locator runSinkDemo() {
    Locator demo = openSinkDemo();
    traceOf(() -> demo.locator("[data-run]").click());
    assertThat(demo.locator("[data-stdout]")).hasText(SEED_OUTPUT, SLOW);
    assertThat(demo.locator("[data-timeline]")).isVisible();
    return demo;
  }

  Locator openSinkDemo() {
    Locator demo = openWidget("sink-demo");
    assertThat(demo.locator("[data-knobs]")).isVisible();
    return demo;
  }

  /** Does {@code action}, waits for the run it starts and keeps that run's trace in {@link #trace}. */
  JsonNode traceOf(Runnable action) {
    Response run = page.waitForResponse(r -> r.url().endsWith("/api/run") && r.request().method().equals("POST"),
        new Page.WaitForResponseOptions().setTimeout(20_000), action);
    assertEquals(200, run.status(), run.text());
    try {
      trace = JSON.readTree(run.text()).get("trace");
    } catch (JsonProcessingException e) {
      throw new AssertionError("the run answered " + run.text(), e);
    }
    return trace;
  }

  /** The position (the timeline's step, its seq minus one) of the {@code nth} event (from 1) that {@code matches}. */
  int nth(int nth, Predicate<JsonNode> matches) {
    int seen = 0;
    for (int i = 0; i < trace.size(); i++) {
      if (matches.test(trace.get(i)) && ++seen == nth) return i;
    }
    throw new AssertionError("the trace has no event number " + nth + " of its kind: " + trace);
  }

  int first(Predicate<JsonNode> matches) {
    return nth(1, matches);
  }

  static Predicate<JsonNode> type(String type) {
    return e -> e.get("type").asText().equals(type);
  }

  static Predicate<JsonNode> write(String sink, String key) {
    return type("write").and(e -> e.get("sink").asText().equals(sink) && e.get("key").asText().equals(key));
  }

  /** What the timeline says at {@code step}: "t=<seq>: words". */
  static String at(int step, String words) {
    return "t=" + (step + 1) + ": " + words;
  }

  int last() {
    return trace.size() - 1;
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
    assertThat(now(demo)).hasText("t=1: AppendSink is declared an append sink: every write adds a row");
    assertThat(demo.locator("[data-timeline-back]")).isDisabled();
    assertThat(demo.locator(".tl-event:not(.tl-future)")).hasCount(1);
    assertThat(demo.locator(".timeline-label[data-sink='AppendSink']")).hasText("AppendSink (append)");
    assertThat(demo.locator(".timeline-label[data-sink='UpsertSink']")).hasText("UpsertSink (upsert by key)");
    assertThat(demo.locator(".timeline-label[data-sink='TwoPhaseSink']")).hasText("TwoPhaseSink (append)");

    Locator forward = demo.locator("[data-timeline-forward]");
    int read = first(type("read"));
    for (int i = 0; i < read; i++) forward.click();
    assertThat(now(demo)).hasText(at(read, "the source reads o1 at offset 0"));
    int o3 = first(write("AppendSink", "o3"));
    for (int i = read; i < o3; i++) forward.click();
    assertThat(now(demo)).hasText(at(o3, "AppendSink writes o3 (offset 2) \u2014 visible"));
    int crash = first(type("crash"));
    for (int i = o3; i < crash; i++) forward.click();
    assertThat(now(demo)).hasText(at(crash, "the job crashes (crash after 4 records)"));
    // At the crash the two-phase sink holds o3 and o4 in its open transaction: written, not visible.
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='TwoPhaseSink'].tl-invisible")));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 not yet visible");
    assertThat(lane(demo, "AppendSink")).hasText("4 visible rows");

    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(last()));
    assertThat(now(demo)).hasText(at(last(), "a read_committed consumer reads o5 = 50"));
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

  /** Runs the sink demo with {@code from} replaced by {@code to} and scrubs its timeline to the last event. */
  Locator runEditedSinkDemo(String from, String to, String stdout) {
    Locator demo = openSinkDemo();
    Locator editor = demo.locator(".CodeMirror");
    String source = (String) editor.evaluate("cm => cm.CodeMirror.getValue()");
    assertTrue(source.contains(from), "the sink demo has " + from);
    editor.evaluate("(cm, text) => cm.CodeMirror.setValue(text)", source.replace(from, to));
    traceOf(() -> demo.locator("[data-run]").click());
    assertThat(demo.locator("[data-stdout]")).hasText(stdout, SLOW);
    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(last()));
    assertThat(now(demo)).hasText(at(last(), "a read_committed consumer reads o5 = 50"));
    return demo;
  }

  @Test
  void swapping_the_words_of_the_printed_report_changes_nothing_the_timeline_draws() {
    Locator demo = runEditedSinkDemo("(duplicates ? \" DUPLICATES\" : \" OK\")", "(duplicates ? \" OK\" : \" DUPLICATES\")",
        "AppendSink rows=7 sum=220 OK\nUpsertSink rows=5 sum=150 DUPLICATES\nTwoPhaseSink rows=5 sum=150 DUPLICATES\n");
    // The declarations decide: the append sink still shows its duplicates, the upsert sink still overwrites by key.
    assertThat(demo.locator(".timeline-label[data-sink='AppendSink']")).hasText("AppendSink (append)");
    assertThat(lane(demo, "AppendSink")).hasText("7 visible rows · duplicates: o3, o4");
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='AppendSink'].tl-duplicate")));
    assertThat(demo.locator(".timeline-label[data-sink='UpsertSink']")).hasText("UpsertSink (upsert by key)");
    assertThat(lane(demo, "UpsertSink")).hasText("5 visible rows");
    assertEquals(List.of(), keys(demo.locator("[data-sink='UpsertSink'].tl-duplicate")));
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='UpsertSink'].tl-overwritten")));
  }

  @Test
  void a_sink_that_is_never_declared_is_drawn_as_appending_so_its_replayed_rows_show_as_duplicates() {
    Locator demo = runEditedSinkDemo("UpsertSink() { Trace.sink(name(), \"upsert\"); }", "", SEED_OUTPUT);
    assertThat(demo.locator(".timeline-label[data-sink='UpsertSink']")).hasText("UpsertSink (append, not declared)");
    assertThat(demo.locator("[data-lane='UpsertSink'] .timeline-lane-name")).hasText("UpsertSink (append, not declared): ");
    assertThat(lane(demo, "UpsertSink")).hasText("7 visible rows · duplicates: o3, o4");
    assertEquals(List.of("o3", "o4"), keys(demo.locator("[data-sink='UpsertSink'].tl-duplicate")));
    assertEquals(List.of(), keys(demo.locator("[data-sink='UpsertSink'].tl-overwritten")));
    assertThat(demo.locator(".timeline-label[data-sink='AppendSink']")).hasText("AppendSink (append)");
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
    assertThat(demo.locator(".timeline-label[data-sink='dedupe']")).hasText("dedupe (append)");
  }

  @Test
  void the_timeline_works_from_the_keyboard() {
    Locator demo = runSinkDemo();
    Locator scrubber = demo.locator("[data-timeline-scrubber]");
    int read = first(type("read"));
    scrubber.fill(String.valueOf(read));
    assertThat(now(demo)).hasText(at(read, "the source reads o1 at offset 0"));
    demo.locator("[data-timeline-forward]").focus();
    page.keyboard().press("Enter");
    page.keyboard().press("Space");
    assertThat(now(demo)).hasText(at(read + 2, "UpsertSink writes o1 (offset 0) \u2014 visible"));
    page.keyboard().press("Shift+Tab");   // to Play
    page.keyboard().press("Shift+Tab");   // to Step back
    page.keyboard().press("Enter");
    assertThat(now(demo)).hasText(at(read + 1, "AppendSink writes o1 (offset 0) \u2014 visible"));

    scrubber.focus();
    page.keyboard().press("ArrowRight");
    assertThat(now(demo)).hasText(at(read + 2, "UpsertSink writes o1 (offset 0) \u2014 visible"));
    page.keyboard().press("End");
    assertThat(now(demo)).hasText(Pattern.compile("^t=" + (last() + 1) + ": "));
    assertThat(scrubber).hasAttribute("aria-valuetext", at(last(), "a read_committed consumer reads o5 = 50"));
    page.keyboard().press("Home");
    assertThat(now(demo)).hasText("t=1: AppendSink is declared an append sink: every write adds a row");

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
    page.waitForTimeout(900); // a wait that proves nothing happens: several steps' worth of time, and no step
    assertThat(now(demo)).hasText(paused); // paused means no more steps
    page.keyboard().press("End");
    page.keyboard().press("ArrowLeft");
    assertThat(now(demo)).hasText(Pattern.compile("^t=" + last() + ": "));
  }

  @Test
  void changing_a_knob_runs_the_snippet_again_and_redraws_the_timeline() {
    Locator demo = runSinkDemo();
    int seedLast = last();
    Locator crashAfter = demo.getByLabel("Crash after this many records");
    assertThat(crashAfter).hasValue("4");
    assertThat(demo.locator("[data-knobs]")).containsText("CRASH_AFTER, 1 to 5, default 4");
    traceOf(() -> crashAfter.fill("3"));
    assertThat(demo.locator("[data-stdout]")).hasText(
        "AppendSink rows=6 sum=180 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n", SLOW);
    assertThat(demo.locator("[data-status]")).hasText(Pattern.compile("You changed the knobs: this run is your experiment$"));
    assertThat(demo.locator("[data-differs]")).isHidden();
    assertThat(now(demo)).hasText("t=1: AppendSink is declared an append sink: every write adds a row");
    assertTrue(last() < seedLast, "crashing one record earlier replays one record less");
    assertThat(demo.locator("[data-timeline-scrubber]")).hasAttribute("max", String.valueOf(last()));
    assertThat(demo.locator(".tl-crash")).hasCount(1);
    int crash = first(type("crash"));
    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(crash));
    assertThat(now(demo)).hasText(at(crash, "the job crashes (crash after 3 records)"));
    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(last()));
    assertThat(lane(demo, "AppendSink")).hasText("6 visible rows · duplicates: o3");

    traceOf(() -> demo.locator("[data-knobs-reset]").click());
    assertThat(crashAfter).hasValue("4");
    assertThat(demo.locator("[data-stdout]")).hasText(SEED_OUTPUT, SLOW);
    assertEquals(seedLast, last());
    assertThat(demo.locator("[data-timeline-scrubber]")).hasAttribute("max", String.valueOf(seedLast));
  }

  @Test
  void crashing_after_the_checkpoint_completed_makes_recovery_commit_the_pre_committed_transaction() {
    Locator demo = runSinkDemo();
    Locator box = demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before its commit");
    assertThat(box).not().isChecked();
    traceOf(box::check);
    assertThat(demo.locator("[data-stdout]")).hasText(
        "AppendSink rows=5 sum=150 OK\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n", SLOW);
    Locator scrubber = demo.locator("[data-timeline-scrubber]");
    int crash = first(type("crash"));
    scrubber.fill(String.valueOf(crash));
    assertThat(now(demo)).hasText(at(crash, "the job crashes (crash after checkpoint 2 completed, before its commit)"));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 not yet visible");
    demo.locator("[data-timeline-forward]").click();
    assertThat(now(demo)).hasText(at(crash + 1, "TwoPhaseSink commits transaction txn-2: its rows become visible"));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("4 visible rows");
  }

  @Test
  void crashing_before_the_checkpoint_completes_makes_recovery_abort_what_it_pre_committed() {
    Locator demo = runSinkDemo();
    traceOf(demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before it completes")::check);
    assertThat(demo.locator("[data-stdout]")).hasText(SEED_OUTPUT, SLOW);
    Locator scrubber = demo.locator("[data-timeline-scrubber]");
    int crash = first(type("crash"));
    scrubber.fill(String.valueOf(crash));
    assertThat(now(demo)).hasText(at(crash, "the job crashes (crash after the pre-commit of checkpoint 2, before it completed)"));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 not yet visible");
    demo.locator("[data-timeline-forward]").click();
    assertThat(now(demo)).hasText(at(crash + 1, "TwoPhaseSink aborts transaction txn-2, pre-committed for checkpoint 2,"
        + " which never completed: its rows are discarded"));
    assertThat(lane(demo, "TwoPhaseSink")).hasText("2 visible rows · 2 aborted");
  }

  @Test
  void reduced_motion_turns_the_animation_off() {
    // The one test of the full-motion path: every other context asks for reduced motion.
    page.emulateMedia(new Page.EmulateMediaOptions().setReducedMotion(ReducedMotion.NO_PREFERENCE));
    Locator demo = runSinkDemo();
    Locator firstColumn = demo.locator(".tl-event").first();
    assertThat(demo.locator("[data-timeline]")).hasAttribute("data-motion", "full");
    assertTrue(((String) firstColumn.evaluate("g => getComputedStyle(g).transitionDuration")).startsWith("0.3s"));

    page.emulateMedia(new Page.EmulateMediaOptions().setReducedMotion(ReducedMotion.REDUCE));
    assertThat(demo.locator("[data-timeline]")).hasAttribute("data-motion", "reduce");
    assertEquals("0s", firstColumn.evaluate("g => getComputedStyle(g).transitionDuration"));
    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(first(type("crash"))));
    // An instant step: the crash column is fully drawn at once.
    assertEquals("1", demo.locator(".tl-crash").evaluate("g => getComputedStyle(g).opacity"));
  }

  @OwnContexts
  @Test
  void on_a_phone_the_timeline_scrolls_sideways_inside_itself() {
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true));
    Locator demo = runSinkDemo();
    Locator drawing = demo.locator("[data-timeline-drawing]");
    assertTrue((Boolean) drawing.evaluate("d => d.scrollWidth > d.clientWidth"), "the drawing scrolls");
    assertTrue((Boolean) page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"),
        "the page itself does not scroll sideways");
    demo.locator("[data-timeline-scrubber]").fill(String.valueOf(last()));
    // The drawing scrolls smoothly: wait (at most 5 s) for the last event to come into view rather than sampling
    // the first frame of the animation.
    page.waitForFunction("d => d.scrollLeft > 0", drawing.elementHandle(),
        new Page.WaitForFunctionOptions().setTimeout(5_000));
    assertTrue((Double.parseDouble(String.valueOf(drawing.evaluate("d => d.scrollLeft")))) > 0,
        "the last event scrolled into view");
    // a knob's label is its tap target: a row a finger can hit, and a tap on its words sets it
    Locator label = demo.locator(".knob label", new Locator.LocatorOptions().setHasText("before its commit"));
    assertTrue(label.boundingBox().height >= 44, "a 44 px target: " + label.boundingBox().height);
    label.click();
    assertThat(demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before its commit")).isChecked();
  }

  @Test
  void the_sandbox_tab_with_a_timeline_and_checked_exercise_has_no_serious_accessibility_violations() {
    Locator demo = runSinkDemo();
    demo.locator("[data-timeline-scrubber]").fill("30");
    Locator exercise = page.locator("[id='sandbox/exercise/exactly-once-append']");
    exercise.locator("[data-check]").click();
    assertThat(status(exercise)).hasText(Pattern.compile("^Not passed: "), SLOW);
    List<String> light = AxeScan.seriousViolations(page, "sandbox tab with timeline (light)");
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
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
    exercise.locator("[data-all-summary]").click();   // the full list, below the digest
    Locator crashAfterO4 = exercise.locator("[data-scenario='crash after o4, checkpoints every 2']");
    assertThat(crashAfterO4).isVisible();
    assertThat(crashAfterO4).hasAttribute("data-passed", "false");
    assertThat(crashAfterO4.locator(".fix-exercise-scenario-name")).hasText("\u2717 Failed: crash after o4, checkpoints every 2");
    assertThat(crashAfterO4.locator(".fix-exercise-verdict")).hasText(new String[] {
        "duplicate write of o3 after replay from offset 2", "duplicate write of o4 after replay from offset 2"});
    assertThat(exercise.locator("[data-scenario='a run without a crash, checkpoints every 2'] .fix-exercise-scenario-name"))
        .hasText("\u2713 Passed: a run without a crash, checkpoints every 2");
    assertThat(exercise.locator(".fix-exercise-title .progress-check")).hasCount(0);
  }

  @Test
  void the_reference_solution_passes_and_keeps_its_checkmark_after_a_reload() throws Exception {
    String solution = ReferenceSolutions.of("exactly-once-append");
    Locator exercise = exercise("exactly-once-append");
    exercise.locator(".CodeMirror").evaluate("(cm, text) => cm.CodeMirror.setValue(text)", solution);
    Response check = page.waitForResponse(r -> r.url().endsWith("/api/exercises/exactly-once-append/check"),
        () -> exercise.locator("[data-check]").click());
    assertEquals(200, check.status(), check.text());
    assertTrue(check.request().postData().matches("(?s).*\"attempt\":\"[0-9a-f-]{36}\".*"), "a fresh attempt id per Check");
    assertThat(status(exercise)).hasText(Pattern.compile("^Passed: all \\d+ scenarios hold · \\d+ ms$"));
    Locator checkmark = exercise.locator(".fix-exercise-title .progress-check");
    assertThat(checkmark).hasAttribute("aria-label", "Passed (checked 1 time)");
    assertThat(exercise.locator("[data-passed='false']")).hasCount(0);
    assertThat(exercise.locator("[data-passed='true']").nth(5)).isAttached(); // more than five scenarios passed

    page.reload(); // the server recorded the pass: the checkmark comes back from GET /api/progress
    Locator reloaded = page.locator("[id='sandbox/exercise/exactly-once-append']");
    assertThat(reloaded.locator(".fix-exercise-title .progress-check")).hasAttribute("aria-label", "Passed (checked 1 time)");
    assertThat(page.locator("[id='sandbox/exercise/idempotent-payment'] .fix-exercise-title .progress-check")).hasCount(0);
    assertEquals("{\"checks\":1,\"passed\":true,\"status\":\"ok\"}", page.evaluate(
        "fetch('/api/progress/exactly-once').then(r => r.json()).then(p => JSON.stringify(p.exercises['exactly-once-append']))"));
  }

  @Test
  void the_reference_solution_opens_after_a_first_check_and_leaves_the_learners_code_alone() {
    Locator exercise = exercise("idempotent-payment");
    String starter = editorText(exercise);
    assertThat(exercise.locator("[data-solution]")).isHidden(); // try first: the server refuses it before a check

    exercise.locator("[data-check]").click();
    assertThat(status(exercise)).hasText(Pattern.compile("^Not passed: \\d+ of \\d+ scenarios failed$"), SLOW);
    exercise.locator("[data-solution]").click();
    assertThat(exercise.locator("[data-solution-source]")).hasText(ReferenceSolutions.of("idempotent-payment"));
    assertThat(exercise.locator(".fix-exercise-solution")).hasAttribute("open", "");
    assertEquals(starter, editorText(exercise), "the learner's code is untouched");

    page.reload(); // the server remembers the check: the button is there from the start
    assertThat(page.locator("[id='sandbox/exercise/idempotent-payment'] [data-solution]")).isVisible();
    assertThat(page.locator("[id='sandbox/exercise/exactly-once-append'] [data-solution]")).isHidden();
  }

  @OwnContexts
  @Test
  void without_javascript_the_exercises_read_with_their_task_and_starter_code() {
    try (var context = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
      Page plain = context.newPage();
      plain.navigate(url("/lessons/exactly-once"));
      Locator exercise = plain.locator("[id='sandbox/exercise/idempotent-payment']");
      assertThat(exercise.locator("h4")).hasText("Make the payment call idempotent");
      assertThat(exercise.locator(".fix-exercise-description")).isVisible();
      assertThat(exercise.locator("pre[data-source]")).containsText("class ");
      assertThat(plain.locator(".fix-exercises-needs-js")).hasText(
          "Checking an exercise needs JavaScript; the tasks and starter code read without it.");
      assertThat(plain.locator("article[data-exercise]")).hasCount(3);
    }
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
    page.onDialog(dialog -> dialog.accept()); // Reset to starter asks before it discards the edit
    exercise.getByRole(AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Reset to starter").setExact(true)).click();
    assertThat(status(exercise)).hasText("Reset to the starter code.");
    assertThat(exercise.locator(".sandbox-error-line")).hasCount(0);
    assertEquals(starter, editorText(exercise));
  }
}
