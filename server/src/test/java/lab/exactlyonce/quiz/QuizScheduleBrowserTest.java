package lab.exactlyonce.quiz;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.options.BoundingBox;
import lab.exactlyonce.BrowserTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a quiz taker sees of the schedule, on a phone and on a desktop: when each question comes back, and why. */
class QuizScheduleBrowserTest extends BrowserTest {
  private Locator current() {
    return page.locator(".quiz-question:not([hidden])");
  }

  /** A seeded quiz: a topic mixes kinds of questions, and the seed fixes which ones the quiz draws. */
  private void start(String topic, int length, long seed) {
    page.navigate(url("/lessons/exactly-once/quiz"));
    QuizBrowserTest.topicChoice(page, topic).check();
    QuizBrowserTest.seedForm(page, seed);
    page.locator("#quiz-length").fill(String.valueOf(length));
    page.locator("#quiz-start button[type=submit]").click();
    page.waitForURL(Pattern.compile(".*/lessons/exactly-once/quiz/[0-9a-f-]{36}$"));
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void a_right_answer_comes_back_in_days_and_a_miss_in_a_minute_and_the_entry_page_counts_them(int width, int height) {
    // A miss is due a minute later, still today: the app's clock (TestClock) starts at mid-day.
    page.setViewportSize(width, height);
    page.navigate(url("/lessons/exactly-once/quiz"));
    assertThat(page.locator("#quiz-due")).hasText("0 questions due today");
    assertThat(page.locator("#quiz-standing li").nth(1)).hasText("0 due: a miss, or a review whose day has come");
    assertThat(page.locator("#quiz-standing li").nth(2)).hasText("0 learned: answered and not due until a later day");
    assertThat(page.locator("#quiz-bank")).containsText("questions");

    start("Sources of duplicates", 2, 1);
    page.keyboard().press(QuizBrowserTest.rightKey(current()));
    assertThat(current().locator(".quiz-verdict")).hasText("Right.");
    assertThat(current().locator(".quiz-comes-back-line")).hasText("This question comes back in 2 days.");
    page.keyboard().press("Enter");
    String right = QuizBrowserTest.rightKey(current());
    page.keyboard().press(right.equals("1") ? "2" : "1");
    assertThat(current().locator(".quiz-verdict")).hasText("Not quite.");
    assertThat(current().locator(".quiz-comes-back-line")).hasText("This question comes back in 1 min.");
    assertTrue(inView(current().locator(".quiz-comes-back-line"), width), "the line is on screen, not cut off");
    page.keyboard().press("Enter");
    page.waitForURL(Pattern.compile(".*/results$"));

    page.navigate(url("/lessons/exactly-once/quiz"));
    assertThat(page.locator("#quiz-due")).hasText("1 question due today");
    assertThat(page.locator("#quiz-standing li").nth(1)).hasText("1 due: a miss, or a review whose day has come");
    assertThat(page.locator("#quiz-standing li").nth(2)).hasText("1 learned: answered and not due until a later day");
  }

  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void each_rating_button_says_when_the_question_comes_back(int width, int height) {
    page.setViewportSize(width, height);
    start("Delivery guarantees", 1, 1);
    page.keyboard().press(" ");
    Locator buttons = current().locator("[data-rating]");
    // Four different waits, from the scheduler: Again the quiz's one-minute learning step, Hard one and a half
    // steps, Good and Easy a first review in days.
    assertThat(buttons).hasText(new String[] {"1 Again: 1 min", "2 Hard: 2 min", "3 Good: 2 days", "4 Easy: 8 days"});
    // The texts are settled by the assertion above: each names its button in a failure message.
    for (Locator button : buttons.all()) {
      String name = button.textContent();
      assertTrue(inView(button, width), name + " fits the screen");
    }
    page.keyboard().press("3");
    assertThat(current().locator(".quiz-verdict")).hasText("Rating saved.");
    assertThat(current().locator(".quiz-comes-back-line")).hasText("This question comes back in 2 days.");
  }

  private static boolean inView(Locator element, int width) {
    element.scrollIntoViewIfNeeded();
    BoundingBox box = element.boundingBox();
    return box != null && box.x >= 0 && box.x + box.width <= width + 0.5;
  }
}
