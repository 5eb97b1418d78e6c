package lab.exactlyonce.quiz;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.RequestOptions;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole quizzes taken with the keyboard only, in practice mode and in interview mode. */
class QuizBrowserTest extends BrowserTest {
  private static final QuestionBankLintTest.Linted WRITTEN =
      QuestionBankLintTest.load(Path.of("lessons"), Path.of("snippets"), "exactly-once");
  private static final List<String> COMMIT_PATH = List.of("Rewindable source offsets", "State matches that cut",
      "Sink writes open txn", "Barrier, sink pre-commits", "Tasks ack the checkpoint", "Checkpoint complete?", "Commit the txn");

  private Locator current() {
    return page.locator(".quiz-question:not([hidden])");
  }

  /**
   * Fills the start form with the keyboard: Tab to each field, type, arrow keys through the topics, Enter to start.
   * The seed fixes which of the topic's questions the quiz draws, since a topic mixes kinds of questions.
   */
  private void startWithKeyboard(String mode, int length, String topic, long seed) {
    page.navigate(url("/lessons/exactly-once/quiz"));
    assertThat(page.locator("#quiz-due")).hasText("0 questions due today");
    page.locator("input[name=mode][value=practice]").focus();
    if (mode.equals("interview")) page.keyboard().press("ArrowDown");
    page.keyboard().press("Tab");
    page.keyboard().press("ControlOrMeta+a");
    page.keyboard().type(String.valueOf(length));
    page.keyboard().press("Tab");
    Locator choice = topicChoice(page, topic);
    for (int step = 0; step < 20 && !choice.isChecked(); step++) page.keyboard().press("ArrowRight");
    assertThat(choice).isChecked();
    seedForm(page, seed);
    page.keyboard().press("Tab");
    assertThat(page.locator("#quiz-start button[type=submit]")).isFocused();
    page.keyboard().press("Enter");
    page.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
  }

  static Locator topicChoice(Page on, String topic) {
    return on.locator("#quiz-topic").getByLabel(topic, new Locator.GetByLabelOptions().setExact(true));
  }

  /** The form takes a seed as the JSON start does; the page offers none, so the test adds the field. */
  static void seedForm(Page on, long seed) {
    on.evaluate("seed => { const field = document.createElement('input'); field.type = 'hidden'; field.name = 'seed';"
        + " field.value = seed; document.getElementById('quiz-start').append(field); }", String.valueOf(seed));
  }

  @Test
  void a_practice_quiz_taken_with_the_keyboard_gives_feedback_after_each_answer() {
    startWithKeyboard("practice", 3, "Sources of duplicates", 1);
    assertThat(page.locator(".quiz-progress")).hasText("Question 1 of 3");
    int right = 0;
    for (int n = 1; n <= 3; n++) {
      Locator q = current();
      assertThat(q.locator("h2")).hasText("Question " + n + " of 3");
      assertThat(q.locator(".quiz-topic")).hasText("Sources of duplicates");
      page.keyboard().press("1");
      Locator feedback = q.locator(".quiz-feedback .quiz-verdict");
      assertThat(feedback).hasText(Pattern.compile("Right\\.|Not quite\\."));
      if (feedback.textContent().equals("Right.")) right++;
      else assertThat(q.locator(".quiz-feedback")).containsText("Right answer: ");
      assertThat(q.locator(".quiz-feedback a")).hasAttribute("href", Pattern.compile("/lessons/exactly-once#gist/dup-.*"));
      assertThat(q.locator("[data-next]")).isFocused(); // focus moves to Next
      page.keyboard().press("Enter");
    }
    page.waitForURL(Pattern.compile(".*/results$"));
    assertThat(page.locator("#quiz-score")).hasText("Score: " + right + " of 3");
    assertThat(page.locator("#quiz-topics tbody tr")).hasText("Sources of duplicates" + right + "3");
    assertThat(page.locator(".quiz-miss")).hasCount(3 - right);
    if (right < 3) assertThat(page.locator(".quiz-miss a").first()).hasText("Read about it in the lesson");
  }

  @Test
  void keys_are_named_on_a_laptop_and_not_on_a_phone_without_a_keyboard() {
    startWithKeyboard("practice", 1, "Sources of duplicates", 1);
    assertThat(page.locator(".quiz-keys")).isVisible();
    page.keyboard().press("1");
    assertThat(current().locator("[data-next]")).hasText("See your results (Enter)");
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
    page.navigate(url("/lessons/exactly-once/quiz"));
    topicChoice(page, "Sources of duplicates").tap();
    seedForm(page, 1);
    page.locator("#quiz-start button[type=submit]").tap();
    page.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
    assertThat(page.locator(".quiz-keys")).isHidden();
    current().locator(".quiz-options button").first().tap();
    // what the reader sees (innerText leaves out what is not displayed)
    assertThat(current().locator("[data-next]")).hasText("Next question",
        new LocatorAssertions.HasTextOptions().setUseInnerText(true));
    assertThat(current().locator("[data-next] .key-hint")).isHidden();
  }

  @Test
  void a_verdict_question_shows_the_starter_and_its_link_lands_on_the_exercise() throws Exception {
    new QuizClient(server).bankWhenRunsAreReady("exactly-once");
    // The topic's four ideas, one of them the dedupe exercise's verdict: the others are answered on the way to it.
    page.navigate(url(startedQuiz("{\"lesson\":\"exactly-once\",\"length\":4,\"topic\":\"Dedupe windows\"}")));
    while (!current().getAttribute("data-question").endsWith("/verdict")) answerAnyhow(current());
    Locator q = current();
    assertThat(q.locator(".quiz-prompt")).containsText("the checker runs this starter code under many crash and retry scenarios. Which of these does the checker report?");
    assertThat(q.locator("pre.quiz-detail code")).containsText("class ");
    page.keyboard().press("1");
    String item = q.getAttribute("data-item");
    Locator link = q.locator(".quiz-feedback a");
    assertThat(link).hasAttribute("href", "/lessons/exactly-once#sandbox/exercise/" + item);
    link.click();
    Locator exercise = page.locator("[id='sandbox/exercise/" + item + "']");
    assertThat(exercise).isFocused();
    assertThat(exercise).isInViewport();
  }

  @Test
  void a_reload_resumes_at_the_first_unanswered_question() {
    startWithKeyboard("practice", 2, "Sources of duplicates", 1);
    page.keyboard().press(rightKey(current()));
    assertThat(current().locator(".quiz-verdict")).hasText("Right.");
    page.reload();
    assertThat(page.locator(".quiz-progress")).hasText("Question 2 of 2");
    page.keyboard().press(rightKey(current()));
    assertThat(current().locator(".quiz-verdict")).hasText("Right.");
    page.keyboard().press("Enter");
    page.waitForURL(Pattern.compile(".*/results$"));
    assertThat(page.locator("#quiz-score")).hasText("Score: 2 of 2");
  }

  @Test
  void self_graded_questions_reveal_with_space_and_rate_with_a_number() {
    startWithKeyboard("practice", 2, "Delivery guarantees", 16);
    for (int n = 1; n <= 2; n++) {
      Locator q = current();
      assertThat(q.locator(".quiz-model-answer")).isHidden();
      page.keyboard().press(" ");
      assertThat(q.locator(".quiz-model-answer")).isVisible();
      assertThat(q.locator("[data-rating='3']")).isFocused();
      String outline = (String) page.evaluate("getComputedStyle(document.activeElement).outlineStyle");
      assertNotEquals("none", outline, "the focused rating shows a visible focus ring");
      page.keyboard().press(n == 1 ? "4" : "1");
      assertThat(q.locator(".quiz-verdict")).hasText("Rating saved.");
      page.keyboard().press("Enter");
    }
    page.waitForURL(Pattern.compile(".*/results$"));
    assertThat(page.locator("#quiz-score")).hasText("Score: none (you rated every answer yourself)");
    assertThat(page.locator(".quiz-self-rated-item p")).hasText(new String[] {"Your rating: Easy", "Your rating: Again"});
    assertThat(page.locator(".quiz-miss")).containsText("Your answer: rated yourself Again");
  }

  @OwnContexts
  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void a_self_graded_question_takes_a_typed_answer_checked_against_its_key_points(int width, int height) {
    try (BrowserContext sized = newContext(new Browser.NewContextOptions().setViewportSize(width, height))) {
      Page p = watched(sized.newPage());
      p.navigate(url("/lessons/exactly-once/quiz"));
      p.locator("#quiz-length").fill("1");
      topicChoice(p, "Delivery guarantees").check();
      seedForm(p, 1);
      p.locator("#quiz-start button[type=submit]").click();
      p.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
      Locator q = p.locator(".quiz-question:not([hidden])");
      Locator field = q.locator(".answer-field");
      Locator check = q.locator("[data-check]");

      field.fill("Epochs?");
      check.click();
      assertThat(q.locator(".answer-score-note")).containsText("Write your answer in your own words");
      assertThat(q.locator(".quiz-model-answer")).isHidden();

      // Typing digits and spaces in the box must not rate or reveal: the keyboard shortcuts skip the field.
      field.fill("");
      field.pressSequentially("The sink writes into a transaction that 2 readers cannot see until the checkpoint "
          + "completes and the commit runs, and the epoch of the producer fences a zombie.");
      assertThat(q.locator(".quiz-model-answer")).isHidden();
      check.click();
      assertThat(q.locator(".answer-score .answer-score-heading").first()).containsText("Points you");
      assertThat(q.locator(".answer-suggestion")).containsText("how well you knew it is yours to say");
      assertThat(q.locator(".quiz-model-answer")).isVisible();
      q.locator("[data-rating='3']").click();
      assertThat(q.locator(".quiz-verdict")).hasText("Rating saved.");

      Number overflow = (Number) p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      assertEquals(0, overflow.intValue(), "the quiz scrolls sideways by " + overflow + " px");
      var box = field.boundingBox();
      assertTrue(box.x >= 0 && box.x + box.width <= width, "the answer box fits the viewport: " + box.x + "+" + box.width);
      assertEquals(List.of(), AxeScan.seriousViolations(p, width + "x" + height + " after checking a typed answer"));
    }
  }

  @Test
  void an_interview_quiz_is_timed_and_shows_feedback_only_at_the_end() {
    new QuizClient(server).bankWhenRunsAreReady("exactly-once"); // the exercise's verdict is in the topic's pool
    startWithKeyboard("interview", 2, "Two-phase commit", 7);
    assertThat(page.locator(".quiz-timer")).hasText(Pattern.compile("\\d+ s left"));
    for (int n = 1; n <= 2; n++) {
      Locator q = page.locator("[id='q-" + n + "']");
      assertThat(q).isVisible();
      assertThat(q.locator("h2")).hasText("Question " + n + " of 2");
      boolean commitEnd = q.getAttribute("data-question").endsWith("f-commit");
      List<String> options = q.locator("button[data-step]").allTextContents().stream()
          .map(t -> t.replaceFirst("^\\d+\\s*", "")).toList();
      // the commit path in order; the abort path with its last two steps swapped (a miss), after an undo
      List<String> wanted = new ArrayList<>(COMMIT_PATH);
      if (!commitEnd) {
        wanted.set(6, "Abort txn and replay");
        page.keyboard().press(String.valueOf(options.indexOf(wanted.get(0)) + 1));
        assertThat(q.locator(".quiz-picked li")).hasCount(1);
        page.keyboard().press("Backspace");
        assertThat(q.locator(".quiz-picked li")).hasCount(0);
        Collections.swap(wanted, 5, 6);
      }
      for (String step : wanted) page.keyboard().press(String.valueOf(options.indexOf(step) + 1));
      if (n == 1) {
        assertThat(q).isHidden(); // interview: straight on to the next question, no verdict shown
        assertThat(q.locator(".quiz-feedback")).isEmpty();
      }
    }
    page.waitForURL(Pattern.compile(".*/results$"));
    assertThat(page.locator("#quiz-score")).hasText("Score: 1 of 2");
    Locator miss = page.locator(".quiz-miss");
    assertThat(miss).hasCount(1);
    assertThat(miss).containsText("Right answer: Rewindable source offsets → State matches that cut");
    assertThat(miss.locator("a")).hasAttribute("href", "/lessons/exactly-once#maps/flow/two-phase-sink");
  }

  @Test
  void when_the_time_runs_out_the_question_counts_as_missed_and_the_quiz_moves_on() throws Exception {
    page.clock().install(); // the page's timer, not the server, runs out the time: the test runs it on
    // A seed whose one question the app grades (a topic mixes kinds; a question rated by the learner scores none).
    page.navigate(url("/lessons/exactly-once/quiz"));
    page.navigate(url(startedQuiz(
        "{\"lesson\":\"exactly-once\",\"mode\":\"interview\",\"length\":1,\"topic\":\"Sources of duplicates\",\"seconds\":5,"
            + "\"seed\":1}")));
    assertThat(page.locator(".quiz-timer")).hasText(Pattern.compile("[1-5] s left"));
    page.clock().runFor(5000);
    page.waitForURL(Pattern.compile(".*/results$"), new Page.WaitForURLOptions().setTimeout(15000));
    assertThat(page.locator("#quiz-score")).hasText("Score: 0 of 1");
    assertThat(page.locator(".quiz-miss")).containsText("Your answer: no answer (time ran out)");
  }

  /**
   * On a phone the topic choice lists the lesson's topic vocabulary, lesson by lesson across lessons, as chips that
   * wrap: no entry lies over another and none pushes the page sideways.
   */
  @OwnContexts
  @Test
  void on_a_phone_the_topic_entries_do_not_overlap() {
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
    page.navigate(url("/lessons/exactly-once/quiz"));
    assertThat(page.locator("#quiz-topic .quiz-topic-option")).hasText(new String[] {"All topics",
        "Delivery guarantees", "Sink strategies", "Two-phase commit", "Kafka transactions", "Read visibility and latency",
        "Sources of duplicates", "Dedupe windows", "Crash recovery", "Side effects"});
    List<String> problems = new ArrayList<>();
    for (String path : List.of("/lessons/exactly-once/quiz", "/lessons/outbox/quiz", "/quiz")) {
      page.navigate(url(path));
      List<Locator> entries = page.locator("#quiz-topic .quiz-topic-option").all();
      List<BoundingBox> boxes = entries.stream().map(Locator::boundingBox).toList();
      for (int i = 0; i < boxes.size(); i++) {
        BoundingBox a = boxes.get(i);
        if (a.x < 0 || a.x + a.width > 390) problems.add(path + ": '" + entries.get(i).textContent() + "' leaves the screen");
        for (int j = i + 1; j < boxes.size(); j++) {
          BoundingBox b = boxes.get(j);
          boolean apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
          if (!apart) problems.add(path + ": '" + entries.get(i).textContent() + "' overlaps '" + entries.get(j).textContent() + "'");
        }
      }
      sideways(page, path, problems);
    }
    assertThat(page.locator("#quiz-topic .quiz-topic-lesson")).hasCount(2); // across lessons: each lesson's own topics
    assertEquals(List.of(), problems);
  }

  /**
   * On phones (390 and 320 px wide) neither the start form nor the results page scrolls sideways: the results of a
   * mixed quiz, with the by-topic table, programs and outputs among the misses, are the widest the quiz draws.
   */
  @OwnContexts
  @Test
  void on_a_phone_the_quiz_and_its_results_fit_the_screen() throws Exception {
    reopen(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
    List<String> overflow = new ArrayList<>();
    for (int width : new int[] {390, 320, 1920}) {
      page.setViewportSize(width, height(width));
      page.navigate(url("/lessons/exactly-once/quiz"));
      assertThat(page.locator("#quiz-topic")).isVisible();
      sideways(page, "the start form at " + width + " px", overflow);
    }
    page.setViewportSize(390, 844);
    page.navigate(url(startedQuiz("{\"lesson\":\"exactly-once\",\"mode\":\"practice\",\"length\":6}")));
    assertThat(page.locator(".quiz-progress")).hasText(Pattern.compile("Question 1 of \\d+"));
    int total = Integer.parseInt(page.locator(".quiz-progress").textContent().replaceAll(".* of ", ""));
    for (int n = 1; n <= total; n++) {
      assertThat(current().locator("h2")).hasText("Question " + n + " of " + total);
      answerAnyhow(current());
    }
    page.waitForURL(Pattern.compile(".*/results$"));
    assertThat(page.locator("#quiz-score")).isVisible();
    for (int width : new int[] {390, 320, 1920}) {
      page.setViewportSize(width, height(width));
      sideways(page, "the results at " + width + " px", overflow);
    }
    assertEquals(List.of(), overflow, "pages that scroll sideways");
  }

  /**
   * Answers with the keyboard whatever the question's kind (the first option, every step in the order listed, or a
   * rating after the reveal), then moves on.
   */
  private void answerAnyhow(Locator q) {
    Locator next = q.locator("[data-next]");
    switch (q.getAttribute("data-kind")) {
      case "self-graded" -> {
        page.keyboard().press(" ");
        page.keyboard().press("1");
      }
      case "order" -> {
        // a step keeps the key its button names and, once picked, ignores it: "1" again picks nothing, so the
        // reader presses each step's own key until the order is complete
        Locator steps = q.locator("button[data-step]");
        int count = steps.count();
        for (int step = 0; step < count; step++) {
          page.keyboard().press(steps.nth(step).locator(".quiz-key").textContent());
        }
        assertThat(q.locator(".quiz-picked li")).hasCount(count);
      }
      default -> page.keyboard().press("1");
    }
    assertThat(next).isVisible();
    next.click();
  }

  /** The height that goes with a width: 320x640 and 390x844 phones, a 1920x1080 screen. */
  private static int height(int width) {
    return width == 320 ? 640 : width == 390 ? 844 : 1080;
  }

  private static void sideways(Page on, String where, List<String> found) {
    Number over = (Number) on.evaluate("document.scrollingElement.scrollWidth - innerWidth");
    if (over.intValue() > 0) found.add(where + " by " + over + " px");
  }

  /** The key that picks the right option of a written question, from the lesson's question bank. */
  static String rightKey(Locator q) {
    String id = q.getAttribute("data-question");
    return String.valueOf(WRITTEN.questions().stream().filter(x -> x.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no written question " + id)).answer().get(0) + 1);
  }

  /** Starts a quiz of {@code settings} (the start request's JSON) in the page's context; answers its page's path. */
  private String startedQuiz(String settings) throws Exception {
    var created = page.request().post(url("/api/quiz/sessions"), RequestOptions.create()
        .setHeader("Content-Type", "application/json").setHeader("Origin", url("").replaceAll("/$", ""))
        .setData(settings));
    assertEquals(201, created.status(), created.text());
    return JSON.readTree(created.text()).get("page").asText();
  }
}
