package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.APIRequestContext;
import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.ColorScheme;
import com.microsoft.playwright.options.RequestOptions;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.Config;
import lab.exactlyonce.OwnContexts;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reviews that bring the learner back, on a phone (390x844) and a desktop (1280x800): the count of what is due on
 * the home and lesson pages and its "Review them now", "Review my N misses now" on the results page, and the ladder's
 * rating buttons with their intervals and the confirmation of a tap. The app is this class's own: a test moves its
 * clock a day on instead of waiting for one.
 */
class ReviewsBrowserTest extends BrowserTest {
  private static final QuestionBankLintTest.Linted WRITTEN =
      QuestionBankLintTest.load(Path.of("lessons"), Path.of("snippets"), "exactly-once");
  private final Config config = TestConfig.defaults();

  @Override
  protected TestServer startServer() {
    return TestServer.start(config);
  }

  private static int rightChoice(String questionId) {
    return WRITTEN.questions().stream().filter(q -> q.id().equals(questionId)).findFirst()
        .orElseThrow(() -> new AssertionError("no written question " + questionId)).answer().get(0);
  }

  /** A request from this site's own page, with the browser context's learner cookie. */
  private JsonNode post(APIRequestContext request, String path, String json, int status) {
    APIResponse response = request.post(url(path), RequestOptions.create().setHeader("Content-Type", "application/json")
        .setHeader("Origin", url("").replaceAll("/$", "")).setData(json));
    assertEquals(status, response.status(), response.text());
    try {
      return JSON.readTree(response.text());
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + response.text(), e);
    }
  }

  /**
   * A practice quiz of three choice questions about duplicates taken through the API (seeds whose first three are all
   * choice questions), each answered right or wrong as {@code right} says; returns the session.
   */
  private JsonNode quizAnswered(APIRequestContext request, long seed, boolean... right) {
    JsonNode session = post(request, "/api/quiz/sessions",
        "{\"lesson\":\"exactly-once\",\"length\":3,\"topic\":\"Sources of duplicates\",\"seed\":" + seed + "}", 201);
    for (int i = 0; i < right.length; i++) {
      JsonNode q = session.get("questions").get(i);
      int choice = right[i] ? rightChoice(q.get("id").asText()) : (rightChoice(q.get("id").asText()) + 1) % 4;
      post(request, "/api/events", "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\","
          + "\"item\":\"" + q.get("item").asText() + "\",\"data\":{\"session\":\"" + session.get("id").asText()
          + "\",\"question\":\"" + q.get("id").asText() + "\",\"choice\":" + choice + "}}", 200);
    }
    return session;
  }

  private static String question(JsonNode session, int i) {
    return session.get("questions").get(i).get("id").asText();
  }

  /** The quiz questions now on the page, in order, each checked to be {@code ids}'. */
  private static void assertQuestions(Page p, List<String> ids) {
    Locator questions = p.locator(".quiz-question");
    assertThat(questions).hasCount(ids.size());
    for (int i = 0; i < ids.size(); i++) assertThat(questions.nth(i)).hasAttribute("data-question", ids.get(i));
  }

  /** Whether the element lies within the screen's width, not cut off at the side. */
  private static boolean fitsAcross(Locator element, int width) {
    element.scrollIntoViewIfNeeded();
    BoundingBox box = element.boundingBox();
    return box != null && box.x >= 0 && box.x + box.width <= width + 0.5;
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void what_is_due_shows_on_the_home_and_lesson_pages_and_review_them_now_asks_exactly_those(int width, int height) {
    page.setViewportSize(width, height);
    page.navigate(url("/"));
    assertThat(page.locator("#lessons-heading")).isVisible();
    assertThat(page.locator(".reviews-due")).hasCount(0); // a newcomer has nothing due

    JsonNode session = quizAnswered(page.request(), 12, true, false, false);
    page.navigate(url("/"));
    Locator home = page.locator(".lesson-card #reviews-due-exactly-once");
    assertThat(home.locator(".reviews-due-count")).hasText("2 questions due for review");
    assertThat(home.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Review them now"))).isVisible();
    assertTrue(fitsAcross(home, width), "the home page's notice fits the screen");

    page.navigate(url("/lessons/exactly-once"));
    Locator lesson = page.locator(".lesson-header #reviews-due-exactly-once");
    assertThat(lesson.locator(".reviews-due-count")).hasText("2 questions due for review");
    assertThat(lesson).isInViewport(); // the first thing under the title, on the first screen
    lesson.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Review them now")).click();
    page.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
    assertQuestions(page, List.of(question(session, 1), question(session, 2)));
    for (int n = 1; n <= 2; n++) {
      Locator current = page.locator(".quiz-question:not([hidden])");
      assertThat(current.locator("h2")).hasText("Question " + n + " of 2");
      page.keyboard().press(QuizBrowserTest.rightKey(current));
      assertThat(current.locator(".quiz-verdict")).hasText("Right.");
      page.keyboard().press("Enter");
    }
    page.waitForURL(Pattern.compile(".*/results$"));

    // Both reviewed: a miss answered right the same day comes back tomorrow, the first right answer in 2 days.
    page.navigate(url("/lessons/exactly-once"));
    assertThat(page.locator(".lesson-header .reviews-due")).hasText("Nothing due for review. Your next review is tomorrow.");
    TestClock.of(config).advance(Duration.ofDays(1));
    page.reload();
    assertThat(page.locator(".lesson-header .reviews-due-count")).hasText("2 questions due for review");
    page.navigate(url("/"));
    assertThat(page.locator(".lesson-card #reviews-due-exactly-once .reviews-due-count")).hasText("2 questions due for review");
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void review_my_misses_starts_a_quiz_of_exactly_the_misses_of_that_session(int width, int height) {
    page.setViewportSize(width, height);
    JsonNode session = quizAnswered(page.request(), 4, false, true); // the third is left unanswered: a miss too
    page.navigate(url("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results"));
    assertThat(page.locator("#quiz-score")).hasText("Score: 1 of 3 (1 not answered)");
    assertThat(page.locator(".quiz-miss")).hasCount(2);
    Locator actions = page.locator("#quiz-actions");
    Locator review = actions.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Review my 2 misses now"));
    assertThat(actions.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Take another quiz"))).isVisible();
    assertThat(review).isVisible();
    assertTrue(fitsAcross(review, width), "the button fits the screen");

    review.click();
    page.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
    assertThat(page.locator(".quiz-progress")).hasText("Question 1 of 2");
    assertQuestions(page, List.of(question(session, 0), question(session, 2)));
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void the_ladder_rating_buttons_say_when_the_question_comes_back_and_confirm_a_tap(int width, int height) {
    page.setViewportSize(width, height);
    page.navigate(url("/lessons/exactly-once#qa"));
    Locator rung = page.locator("[id='qa/L1']");
    rung.locator("summary").click();
    Locator buttons = rung.locator(".self-rating button[data-rating]");
    assertThat(buttons).hasText(new String[] {"1 Again: 1 min", "2 Hard: 2 min", "3 Good: 2 days", "4 Easy: 8 days"});
    for (int i = 0; i < 4; i++) assertTrue(fitsAcross(buttons.nth(i), width), "rating button " + (i + 1) + " fits the screen");
    Locator confirmation = rung.locator(".self-rating-confirm");
    assertThat(confirmation).hasAttribute("role", "status"); // a live region, there before it is filled
    assertThat(confirmation).isEmpty();

    buttons.nth(1).click();
    assertThat(confirmation).hasText("Rated Hard — back in 2 min");
    assertThat(buttons.nth(1)).hasAttribute("aria-pressed", "true");
    for (int i : new int[] {0, 2, 3}) assertThat(buttons.nth(i)).hasAttribute("aria-pressed", "false");
    assertThat(rung.locator(".question-meta .progress-check")).hasAttribute("aria-label", "Answer seen, rated Hard");

    // The rating moved the question's schedule: once the server has it, the buttons say what a second rating would do.
    assertThat(page.locator(".progress-sync")).hasText("All progress saved.");
    APIResponse now = page.request().get(url("/api/quiz/lessons/exactly-once/intervals"));
    List<String> after = new ArrayList<>();
    JsonNode l1;
    try {
      l1 = JSON.readTree(now.text()).at("/rungs/L1");
    } catch (Exception e) {
      throw new AssertionError(now.text(), e);
    }
    List<String> labels = List.of("Again", "Hard", "Good", "Easy");
    for (int i = 0; i < 4; i++) after.add((i + 1) + " " + labels.get(i) + ": " + l1.get(i).asText());
    assertNotEquals(List.of("1 Again: 1 min", "2 Hard: 2 min", "3 Good: 2 days", "4 Easy: 8 days"), after);
    assertThat(buttons).hasText(after.toArray(String[]::new));

    // The keyboard rates too, and the confirmation names the interval the button showed.
    rung.locator("summary").press("3");
    assertThat(confirmation).hasText("Rated Good — back in " + l1.get(2).asText());
    assertThat(buttons.nth(2)).hasAttribute("aria-pressed", "true");
  }

  @OwnContexts
  @Test
  void without_javascript_the_home_page_shows_what_is_due_and_its_button_starts_the_review() {
    try (BrowserContext noJs = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false).setViewportSize(390, 844))) {
      Page plain = watched(noJs.newPage());
      JsonNode session = quizAnswered(noJs.request(), 5, false, true, false);
      plain.navigate(url("/"));
      assertThat(plain.locator(".reviews-due-count")).hasText("2 questions due for review");
      plain.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Review them now")).click();
      plain.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
      assertQuestions(plain, List.of(question(session, 0), question(session, 2)));
    }
  }

  @ParameterizedTest
  @EnumSource(value = ColorScheme.class, names = {"LIGHT", "DARK"})
  void the_notices_and_the_results_read_well_in_the_light_and_the_dark_theme(ColorScheme scheme) {
    page.setViewportSize(390, 844);
    page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(scheme));
    JsonNode session = quizAnswered(page.request(), 13, true, false);
    List<String> problems = new ArrayList<>();
    page.navigate(url("/"));
    assertThat(page.locator(".reviews-due-count")).hasText("1 question due for review");
    problems.addAll(AxeScan.seriousViolations(page, "home with reviews due (" + scheme + ")"));
    page.navigate(url("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results"));
    assertThat(page.locator(".quiz-review-misses")).hasText("Review my 2 misses now");
    problems.addAll(AxeScan.seriousViolations(page, "results (" + scheme + ")"));
    assertEquals(List.of(), problems, String.join("\n", problems));
  }
}
