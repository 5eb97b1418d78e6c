package lab.exactlyonce.sandbox;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Sandbox tab as a workbench, on a desktop and on a phone: a run's result comes into view where the learner
 * is, a knob is set in the code the learner sees, a refused knob says so beside itself, edits are kept across a
 * reload, and an exercise's instructions and verdicts read.
 */
class WorkbenchBrowserTest extends SandboxTabTest {
  enum Screen {
    DESKTOP(1280, 800, false), PHONE(390, 844, true);

    final int width;
    final int height;
    final boolean mobile;

    Screen(int width, int height, boolean mobile) {
      this.width = width;
      this.height = height;
      this.mobile = mobile;
    }
  }

  /** What confirm() asked, each answered with {@link #acceptDialogs}. */
  final List<String> dialogs = new ArrayList<>();
  boolean acceptDialogs = true;

  void use(Screen screen) {
    dialogs.clear();
    acceptDialogs = true;
    reopen(new Browser.NewContextOptions().setViewportSize(screen.width, screen.height).setIsMobile(screen.mobile));
    page.onDialog(dialog -> {
      dialogs.add(dialog.message());
      if (acceptDialogs) dialog.accept();
      else dialog.dismiss();
    });
  }

  static Locator status(Locator widget) {
    return widget.locator("[data-status]");
  }

  boolean focusIsIn(Locator element) {
    return (Boolean) element.evaluate("e => e.contains(document.activeElement)");
  }

  @OwnContexts
  @ParameterizedTest
  @EnumSource(Screen.class)
  void ctrl_enter_brings_the_status_and_output_into_view_and_the_editor_keeps_the_focus(Screen screen) {
    use(screen);
    Locator demo = openWidget("sink-demo");
    demo.locator(".CodeMirror").click();
    editorFocused(demo);
    page.keyboard().press("Control+Enter");
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);
    assertThat(status(demo)).isInViewport();
    assertThat(demo.locator("[data-stdout]")).isInViewport();
    assertTrue(focusIsIn(demo.locator(".CodeMirror")), "the learner can go on typing");
  }

  @OwnContexts
  @ParameterizedTest
  @EnumSource(Screen.class)
  void a_knob_change_is_set_in_the_editor_and_its_run_shows_in_view_as_an_experiment(Screen screen) {
    use(screen);
    Locator demo = openWidget("sink-demo");
    Locator crashAfter = demo.getByLabel("Crash after this many records");
    crashAfter.fill("5");
    assertThat(status(demo)).hasText(
        Pattern.compile("^Finished in \\d+ ms · You changed the knobs: this run is your experiment$"), SLOW);
    assertThat(status(demo)).isInViewport();
    assertThat(demo.locator("[data-stdout]")).isInViewport();
    assertTrue(editorText(demo).contains("static final int CRASH_AFTER = 5;"), editorText(demo));
    assertThat(demo.locator("[data-differs]")).isHidden();
    assertThat(demo.locator("[data-expected]")).isHidden();
    assertTrue(focusIsIn(crashAfter), "the learner can go on turning the knob");

    Locator beforeCommit = demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before its commit");
    page.waitForResponse(r -> r.url().endsWith("/api/run"), new Page.WaitForResponseOptions().setTimeout(20_000),
        beforeCommit::check);
    assertThat(status(demo)).hasText(Pattern.compile("experiment$"), SLOW);
    assertTrue(editorText(demo).contains("static final boolean CRASH_BEFORE_COMMIT = true;"), editorText(demo));

    demo.locator("[data-knobs-reset]").click();
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);
    assertThat(demo.locator("[data-explanation]")).isVisible();
    assertTrue(editorText(demo).contains("static final int CRASH_AFTER = 4;"), editorText(demo));
  }

  /** A knob change's request that answers late, and the answer it gets: one that must not show. */
  enum Late {
    SET_KNOBS("/set-knobs", "{\"source\": \"// the code of a superseded knob change\\n\"}"),
    RUN("/api/run", "{\"status\": \"ok\", \"stdout\": \"the output of a superseded run\\n\", \"elapsedMs\": 1}");

    final String path;
    final String answer;

    Late(String path, String answer) {
      this.path = path;
      this.answer = answer;
    }
  }

  /**
   * The answer to a knob change's set-knobs or run is held back until the reset that followed it has been set and
   * run; then it arrives, and the widget still shows the reset's code and outcome.
   */
  @OwnContexts
  @ParameterizedTest
  @CsvSource({"DESKTOP, RUN", "PHONE, SET_KNOBS"})   // each screen once and each late answer once
  void a_reset_of_the_knobs_wins_over_the_late_answer_of_the_change_before_it(Screen screen, Late late) {
    use(screen);
    // Counts the answers the page has read, after the code that awaited each has run (a task after its microtasks).
    page.addInitScript("""
        window.answersRead = 0;
        const fetched = window.fetch;
        window.fetch = (...args) => fetched(...args).then((response) => {
          const json = response.json.bind(response);
          response.json = () => json().then((body) => {
            setTimeout(() => window.answersRead++);
            return body;
          });
          return response;
        });""");
    Locator demo = openWidget("sink-demo");
    demo.getByLabel("Crash after this many records").fill("5");
    assertThat(status(demo)).hasText(Pattern.compile("experiment$"), SLOW);

    List<Route> held = new ArrayList<>();
    page.route(url -> url.endsWith(late.path), route -> {
      if (held.isEmpty()) held.add(route);
      else route.resume();
    });
    // From the keyboard: the finished run is still scrolling its output into view (smoothly, as without reduced
    // motion), and a pointer aimed at a moving checkbox can miss it; the race under test is the same either way.
    Locator beforeCommit = demo.getByLabel("Crash at the next checkpoint, after its pre-commit but before its commit");
    page.waitForRequest(r -> r.url().endsWith(late.path), new Page.WaitForRequestOptions().setTimeout(20_000),
        () -> beforeCommit.press("Space"));
    assertThat(beforeCommit).isChecked();
    page.waitForResponse(r -> r.url().endsWith("/api/run"), new Page.WaitForResponseOptions().setTimeout(20_000),
        () -> demo.locator("[data-knobs-reset]").press("Enter"));
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);

    int read = ((Number) page.evaluate("() => window.answersRead")).intValue();
    held.get(0).fulfill(new Route.FulfillOptions().setContentType("application/json").setBody(late.answer));
    page.waitForFunction("read => window.answersRead > read", read, new Page.WaitForFunctionOptions().setTimeout(20_000));
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"));
    assertThat(demo).hasAttribute("data-state", "ok");
    assertThat(demo.locator("[data-explanation]")).isVisible();
    assertThat(demo.locator("[data-stdout]")).not().containsText("superseded");
    String code = editorText(demo);
    assertTrue(code.contains("static final int CRASH_AFTER = 4;")
        && code.contains("static final boolean CRASH_BEFORE_COMMIT = false;"), code);
  }

  @OwnContexts
  @ParameterizedTest
  @EnumSource(Screen.class)
  void an_out_of_range_or_malformed_knob_is_refused_beside_it_and_the_old_output_goes(Screen screen) {
    use(screen);
    Locator demo = openWidget("sink-demo");
    demo.locator("[data-run]").click();
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);
    String before = editorText(demo);

    Locator crashAfter = demo.getByLabel("Crash after this many records");
    crashAfter.fill("9");
    Locator refused = demo.locator("[data-knob-error='CRASH_AFTER']");
    assertThat(refused).hasText("9 is out of range; allowed: a whole number from 1 to 5.");
    assertThat(refused).isInViewport();
    assertThat(crashAfter).hasAttribute("aria-invalid", "true");
    assertThat(demo.locator("[data-output]")).isHidden();
    assertThat(demo.locator("[data-expected]")).isHidden();
    assertThat(status(demo)).hasText("Not run: a knob\u2019s value is refused; the allowed range shows beside it.");
    assertEquals(before, editorText(demo), "a refused value is not written into the code");

    crashAfter.fill("");
    assertThat(refused).hasText("Not a whole number; allowed: a whole number from 1 to 5.");
    crashAfter.fill("3");
    assertThat(refused).isHidden();
    assertThat(status(demo)).hasText(Pattern.compile("experiment$"), SLOW);
  }

  @OwnContexts
  @ParameterizedTest
  @EnumSource(Screen.class)
  void edits_survive_a_reload_and_reset_to_starter_asks_before_it_restores_the_starter(Screen screen) {
    use(screen);
    Locator demo = openWidget("sink-demo");
    String original = editorText(demo);
    demo.getByRole(AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Reset to starter")).click();
    assertEquals(List.of(), dialogs, "nothing edited: nothing to confirm");
    typeAtEnd(demo, "\n// my change");
    Locator exercise = page.locator("[id='sandbox/exercise/idempotent-payment']");
    typeAtEnd(exercise, "\n// my attempt");
    String edited = editorText(demo);
    String attempt = editorText(exercise);

    page.reload();
    demo = openWidget("sink-demo");
    exercise = page.locator("[id='sandbox/exercise/idempotent-payment']");
    assertThat(exercise.locator(".CodeMirror")).isVisible();
    assertThat(status(demo)).hasText("Your edits from last time are back. Reset to starter brings back the original.", SLOW);
    assertEquals(edited, editorText(demo));
    assertEquals(attempt, editorText(exercise));

    acceptDialogs = false;
    demo.locator("[data-reset]").click();
    assertEquals(1, dialogs.size(), dialogs.toString());
    assertEquals(edited, editorText(demo), "a dismissed confirm keeps the edit");
    acceptDialogs = true;
    demo.locator("[data-reset]").click();
    exercise.locator("[data-reset]").click();
    assertTrue(dialogs.get(1).contains("Discard your edits"), dialogs.toString());
    assertEquals(original, editorText(demo));
    assertThat(status(demo)).hasText("Reset to the starter code.");

    page.reload();
    demo = openWidget("sink-demo");
    assertEquals(original, editorText(demo));
    assertThat(status(demo)).hasText("Not run yet.");
    assertTrue(editorText(page.locator("[id='sandbox/exercise/idempotent-payment']")).endsWith("}\n")
        && !editorText(page.locator("[id='sandbox/exercise/idempotent-payment']")).contains("my attempt"));
  }

  @Test
  void blocked_storage_leaves_the_sandbox_working() {
    page.addInitScript("Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked',"
        + " 'SecurityError'); } });");
    Locator demo = openWidget("sink-demo");
    typeAtEnd(demo, "\n// kept nowhere");
    demo.locator("[data-run]").click();
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms"), SLOW);
  }

  @Test
  void a_run_that_takes_a_while_shows_it_is_running() {
    List<Route> held = new ArrayList<>();
    page.route("**/api/run", held::add);
    Locator demo = openWidget("sink-demo");
    demo.locator("[data-run]").click();
    assertThat(status(demo)).hasText("Running\u2026");
    assertThat(demo).hasAttribute("data-state", "running");
    held.get(0).resume();
    assertThat(status(demo)).hasText(Pattern.compile("^Finished in \\d+ ms$"), SLOW);
  }

  @OwnContexts
  @ParameterizedTest
  @EnumSource(Screen.class)
  void exercise_instructions_read_whole_and_a_failed_check_leads_with_its_first_failure_and_a_hint(Screen screen) {
    use(screen);
    Locator exercise = openWidget("exercise/exactly-once-append");
    Locator instructions = exercise.locator("[data-instructions]");
    assertThat(instructions).containsText("List<String> openTransactions()");
    assertThat(instructions).containsText("calls recover(state)");
    assertTrue((Boolean) instructions.evaluate("e => e.scrollWidth <= e.clientWidth"), "the instructions are not cut off");
    assertTrue((Boolean) page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"),
        "the page does not scroll sideways");

    exercise.locator("[data-check]").click();
    assertThat(status(exercise)).hasText(Pattern.compile("^Not passed: \\d+ of \\d+ scenarios failed$"), SLOW);
    assertThat(status(exercise)).isInViewport();
    // The starter fails 18 of 27 scenarios for one reason: the digest says so once, before any list.
    Locator digest = exercise.locator("[data-digest]");
    assertThat(digest.locator("[data-first-failure]")).hasText("First failure: crash after o1, checkpoints every 2");
    assertThat(digest.locator("[data-first-failure]")).isInViewport();
    assertThat(digest.locator("[data-seen]")).hasText(
        "A reader saw an order twice: duplicate write of o1 after replay from offset 0");
    assertThat(digest.locator("[data-reason]")).hasText(Pattern.compile("^All \\d+ failed scenarios: a reader saw an "
        + "order twice \\(such as duplicate write of o1 after replay from offset 0\\)$"));
    assertThat(digest.locator("[data-hint]")).hasText(Pattern.compile("^Hint: A replay writes again every order"));
    Locator first = exercise.locator(".fix-exercise-scenario").first();
    assertThat(first).isHidden();   // the full list is collapsed below the digest
    exercise.locator("[data-all-summary]").click();
    assertThat(first).isVisible();
    assertThat(first).hasAttribute("data-passed", "false");
    assertThat(first.locator(".fix-exercise-scenario-name")).hasText(Pattern.compile("^\u2717 Failed: "));
    assertTrue((Boolean) page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"),
        "the verdict does not make the page scroll sideways");
  }

  @OwnContexts
  @Test
  void without_javascript_an_exercise_shows_its_instructions() {
    try (var plainContext = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
      Page plain = plainContext.newPage();
      plain.navigate(url("/lessons/exactly-once"));
      Locator instructions = plain.locator("[id='sandbox/exercise/idempotent-payment'] [data-instructions]");
      assertThat(instructions).isVisible();
      assertThat(instructions).containsText("It may throw GatewayTimeout");
    }
  }
}
