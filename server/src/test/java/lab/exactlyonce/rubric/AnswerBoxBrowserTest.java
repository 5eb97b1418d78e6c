package lab.exactlyonce.rubric;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.OwnContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Typing an answer on the lesson page, seeing the key points made and missed, then rating it, on a phone and a desktop. */
class AnswerBoxBrowserTest extends BrowserTest {
  private static final String LESSON = "/lessons/exactly-once";

  @OwnContexts
  @ParameterizedTest(name = "{0}x{1}")
  @CsvSource({"390, 844", "1280, 800"})
  void a_typed_answer_shows_points_made_and_missed_then_the_rating_is_recorded(int width, int height) {
    try (BrowserContext sized = newContext(new Browser.NewContextOptions().setViewportSize(width, height))) {
      Page p = watched(sized.newPage());
      p.navigate(url(LESSON + "#qa/L5"));
      Locator item = p.locator("[id='qa/L5']");
      Locator details = item.locator(":scope > details");
      assertThat(details).not().hasAttribute("open", "");

      item.getByLabel("Your answer").fill("The producer's transactional id is registered, and every new session "
          + "bumps the epoch so the zombie is shut out.");
      item.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check my answer")).click();

      assertThat(item.locator(".answer-hit li")).hasText(new String[] {
          "✓ A transactional.id registered with the transaction coordinator (“transactional id”)",
          "✓ Each new session (initTransactions) bumps the id's epoch (“bumps the epoch”)"});
      assertThat(item.locator(".answer-missed li")).hasText("✗ Writes and commits with an older epoch are rejected");
      assertThat(item.locator(".answer-suggestion")).containsText("suggest rating it Hard");
      assertThat(details).hasAttribute("open", "");
      assertThat(details.locator(".answer-body")).isVisible();

      Locator good = item.locator(".self-rating [data-rating='3']");
      assertThat(good).isVisible();
      assertThat(good).hasAttribute("aria-pressed", "false");
      good.click();
      assertThat(good).hasAttribute("aria-pressed", "true");
      assertThat(p.locator(".progress-sync")).hasText("All progress saved.");
      @SuppressWarnings("unchecked")
      Map<String, Object> rung = (Map<String, Object>) p.evaluate(
          "fetch('/api/progress/exactly-once').then(r => r.json()).then(p => p.rungs.L5)");
      assertEquals(3, ((Number) rung.get("rating")).intValue(), "the self-rating is stored as before: " + rung);

      Number overflow = (Number) p.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");
      assertEquals(0, overflow.intValue(), "the page scrolls sideways by " + overflow + " px");
      var box = item.getByLabel("Your answer").boundingBox();
      assertTrue(box.x >= 0 && box.x + box.width <= width, "the answer box fits the viewport: " + box.x + "+" + box.width);
      assertEquals(List.of(), AxeScan.seriousViolations(p, width + "x" + height + " after checking an answer"));
    }
  }

  @Test
  void the_scenario_box_and_an_interview_question_are_checked_in_place() {
    page.navigate(url(LESSON + "#qa/sq-api"));
    Locator scenario = page.locator("[id='qa/sq-api']");
    scenario.getByLabel("Your answer").fill("Use the order id plus the operation, computed the same way on every "
        + "replay; never a random UUID. The API remembers keys it has seen.");
    scenario.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check my answer")).click();
    assertThat(scenario.locator(".answer-score-note")).hasText("You made 4 of 4 key points.");
    assertThat(scenario.locator(":scope > details")).hasAttribute("open", "");

    Locator interview = page.locator("[id='qa/iq3']");
    interview.getByLabel("Your answer").fill("Slower.");
    interview.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check my answer")).click();
    assertThat(interview.locator(".answer-score-note")).containsText("Write your answer in your own words");
    assertThat(interview.locator(":scope > details")).not().hasAttribute("open", "");

    // The classic two-phase misconception, in the lesson's own words: told what it gets wrong, never Good.
    Locator walk = page.locator("[id='qa/iq2']");
    walk.getByLabel("Your answer").fill("Each checkpoint period has its own transaction. When the barrier arrives "
        + "the sink commits it; a crash aborts and the source replays from the checkpoint.");
    walk.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Check my answer")).click();
    assertThat(walk.locator(".answer-misconception")).containsText("The sink does not commit when the barrier "
        + "reaches it");
    assertThat(walk.locator(".answer-misconception")).containsText("you wrote “barrier arrives the sink commits”");
    assertThat(walk.locator(".answer-suggestion")).not().containsText("Good");
  }

  @OwnContexts
  @Test
  void without_javascript_there_is_no_box_and_the_answer_still_reveals() {
    try (BrowserContext noJs = newContext(new Browser.NewContextOptions().setJavaScriptEnabled(false))) {
      Page p = noJs.newPage();
      p.navigate(url(LESSON));
      Locator item = p.locator("[id='qa/L5']");
      assertThat(item.locator("textarea")).hasCount(0);
      assertThat(p.locator(".answer-check")).hasCount(0);
      item.locator("summary").click();
      assertThat(item.locator(".answer-body")).isVisible();
    }
  }
}
