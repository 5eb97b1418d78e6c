package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.BoundingBox;
import com.microsoft.playwright.options.Cookie;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classroom where it is used: students on phones (390 and 320 px wide), the instructor on a laptop (1280 px) and
 * a projector (1920 px). No page scrolls sideways, the live question fits a phone with only its options drawn as
 * buttons, the picker previews the card.
 */
class ClassroomLayoutBrowserTest extends BrowserTest {
  private static final String OVERFLOWS = "() => document.scrollingElement.scrollWidth > innerWidth";

  @Override
  protected TestServer startServer() {
    return TestServer.start(Client.config());
  }

  private Client teacher;
  private JsonNode room;
  private String classId;

  private void newClass(String name) {
    teacher = Client.instructor(server, SECRET);
    room = json(teacher.post("/api/teach/classes", "{\"name\":" + Client.quote(name) + "}"));
    classId = room.get("id").asText();
  }

  /** The pushable question with the longest prose detail: the one most likely to be too wide for a phone. */
  private JsonNode longestQuestion() {
    JsonNode longest = null;
    for (JsonNode q : json(teacher.get("/api/teach/classes/" + classId + "/questions"))) {
      if (q.get("kind").asText().equals("predict")) continue;
      if (longest == null || q.get("detail").asText().length() > longest.get("detail").asText().length()) longest = q;
    }
    assertTrue(longest != null && !longest.get("detail").asText().isEmpty(), "the bank has a question with a detail");
    return longest;
  }

  private static void noSidewaysScroll(Page on, String where, List<String> found) {
    if (Boolean.TRUE.equals(on.evaluate(OVERFLOWS))) {
      found.add(where + " at " + on.viewportSize().width + " px: scrollWidth " + on.evaluate("document.documentElement.scrollWidth")
          + " " + on.evaluate("() => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth && !e.parentElement.closest('.panel-body')).slice(0, 6).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')"));
    }
  }

  private static double fontSize(Locator text) {
    return ((Number) text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")).doubleValue();
  }

  /** The computed look that says "tap me": a box, its fill and the pointer. */
  private static final String LOOK = "e => { const s = getComputedStyle(e); return [s.borderTopStyle + ' '"
      + " + s.borderTopWidth, s.backgroundColor, s.cursor].join(' | '); }";

  /**
   * The card's prompt and context are text, not look-alike answers: the options are its only buttons, and neither the
   * prompt nor the context has an option's border, fill or pointer.
   */
  private static void assertOnlyOptionsLookTappable(Locator card) {
    Locator options = card.locator(".live-option");
    assertThat(card.locator("button, [role=button]")).hasCount(options.count());
    assertThat(card.locator("button:not(.live-option), [role=button]:not(.live-option)")).hasCount(0);
    String option = (String) options.first().evaluate(LOOK);
    assertTrue(option.startsWith("solid") && option.endsWith("pointer"), "an option looks tappable: " + option);
    for (String part : List.of(".live-prompt", ".live-detail")) {
      String look = (String) card.locator(part).evaluate(LOOK);
      assertTrue(look.startsWith("none") && !look.endsWith("pointer"), part + " is drawn as text: " + look);
      assertTrue(!look.split(" \\| ")[1].equals(option.split(" \\| ")[1]), part + " has no option's fill: " + look);
    }
  }

  private BrowserContext phone() {
    return newContext(new Browser.NewContextOptions().setViewportSize(390, 844).setIsMobile(true).setHasTouch(true));
  }

  @Test
  void a_student_on_a_phone_reads_the_whole_question_sees_the_countdown_and_their_place_and_points() {
    newClass("Phones");
    JsonNode question = longestQuestion();
    List<String> overflow = new ArrayList<>();
    BrowserContext phone = phone();
    List<String> errors = new ArrayList<>();
    try {
      Page student = phone.newPage();
      student.onPageError(e -> errors.add("uncaught: " + e));
      student.navigate(url("/join?code=" + room.get("code").asText()));
      noSidewaysScroll(student, "join", overflow);
      student.getByLabel("Nickname", new Page.GetByLabelOptions().setExact(false)).fill("Pia");
      student.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Join")).tap();
      assertThat(student.locator("#live-body")).containsText("Waiting for your instructor");
      noSidewaysScroll(student, "student page, waiting", overflow);

      teacher.live(classId, "push", "{\"question\":" + Client.quote(question.get("id").asText()) + ",\"timeLimit\":120}");
      Locator card = student.locator(".live-question[data-state=open]");
      assertThat(card).isVisible();
      assertThat(card.locator(".countdown")).hasText(Pattern.compile("Time left: (2:00|1:[0-5]\\d)"));
      for (int width : new int[] {390, 320}) {
        student.setViewportSize(width, 700);
        noSidewaysScroll(student, "student page, question open", overflow);
        BoundingBox box = card.boundingBox();
        assertTrue(box.x >= 0 && box.x + box.width <= width, "the card fits " + width + " px: " + box.x + "+" + box.width);
        assertEquals(true, card.locator(".live-detail").evaluate("d => d.scrollWidth <= d.clientWidth"),
            "the detail wraps at " + width + " px instead of being clipped");
        for (Locator option : card.locator(".live-option").all()) {
          BoundingBox b = option.boundingBox();
          assertTrue(b.height >= 44 && b.width >= 44, "a tap target of at least 44 px: " + b.width + "x" + b.height);
          assertTrue(b.x + b.width <= width, "the option fits the screen");
        }
        assertOnlyOptionsLookTappable(card);
      }
      assertEquals(List.of(), AxeScan.seriousViolations(student, "the student's card"));
      String lastLine = question.get("detail").asText().lines().reduce((a, b) -> b).orElseThrow().replace("`", "");
      assertThat(card.locator(".live-detail")).containsText(lastLine.substring(lastLine.length() - 20));
      student.setViewportSize(390, 844);

      card.locator("button[data-choice='" + question.get("answer").asText() + "']").tap();
      assertThat(student.locator(".live-status")).hasText("Answer recorded. Wait for the reveal.");
      teacher.live(classId, "reveal", "{}");
      teacher.live(classId, "leaderboard", "{\"show\":true,\"anonymous\":true}");
      // Points for a right answer within the countdown: 1000 at once, less the longer the tap took (at least 500).
      Locator board = student.locator("#leaderboard-body");
      assertThat(board.locator("li.me")).hasText(Pattern.compile("^Student 1 \\(you\\) \\d{3,4} points$"));
      assertThat(board.locator(".lb-mine")).hasText(Pattern.compile("^You: place 1 of 1, \\d{3,4} points$"));
      noSidewaysScroll(student, "student page, revealed with the leaderboard", overflow);

      teacher.live(classId, "end", "{}");
      assertThat(student.locator("#live-body")).containsText("Waiting for your instructor");
      Locator podium = board.locator(".podium");
      assertThat(podium.locator("h3")).hasText("Podium");
      assertThat(podium.locator(".lb-mine")).hasText(Pattern.compile("^You: place 1 of 1, \\d{3,4} points$"));
      noSidewaysScroll(student, "student page, the podium", overflow);
      teacher.live(classId, "leaderboard", "{\"show\":false}");
      assertThat(board.locator(".leaderboard")).hasCount(0);

      student.setViewportSize(1280, 800);
      noSidewaysScroll(student, "student page", overflow);
      student.navigate(url("/join"));
      noSidewaysScroll(student, "join", overflow);
    } finally {
      phone.close();
    }
    assertEquals(List.of(), errors);
    assertEquals(List.of(), overflow, "pages that scroll sideways");
  }

  @Test
  void the_instructor_finds_a_question_previews_it_pushes_it_timed_and_projects_it() {
    newClass("Projector");
    Client.student(server, room.get("code").asText(), "Abcdefghijklmnopqrstuvwx");
    Client runner = Client.student(server, room.get("code").asText(), "Runner");
    assertEquals(200, runner.post("/api/events", "{\"id\":\"" + Client.newId() + "\",\"type\":\"snippet.run\",\"lesson\":\"exactly-once\","
        + "\"item\":\"sink-demo\",\"data\":{\"status\":\"ok\"}}").statusCode());
    JsonNode question = longestQuestion();
    context.addCookies(List.of(new Cookie("eolab_instructor", teacher.cookies.get("eolab_instructor")).setUrl(url("/"))));
    page.setViewportSize(1280, 800);
    List<String> overflow = new ArrayList<>();
    page.navigate(url("/teach"));
    noSidewaysScroll(page, "class list", overflow);
    page.setViewportSize(1920, 1080);
    noSidewaysScroll(page, "class list at 1920 px", overflow);
    page.setViewportSize(1280, 800);
    page.navigate(url("/teach/classes/" + classId));
    assertThat(page.locator("#dash-status")).hasText("Live.");
    noSidewaysScroll(page, "dashboard", overflow);
    assertThat(page.locator("#progress-body tr:has(th:text-is('Runner')) td").last()).hasText("Sandbox: sink demo");

    // Search by words of the question's detail; the preview is the student's card for it.
    String firstLine = question.get("detail").asText().lines().findFirst().orElseThrow().replace("`", "");
    page.getByLabel("Find a question").fill(firstLine);
    assertThat(page.locator("#question-search-count")).hasText(Pattern.compile("\\d+ questions? match\\."));
    Locator item = page.locator(".picker-item:has(input[value='" + question.get("id").asText() + "'])");
    assertThat(item).isVisible();
    assertThat(page.locator(".picker-item:not([hidden])")).not().hasCount(page.locator(".picker-item").count());
    item.click();
    Locator preview = page.locator("#question-preview .live-question");
    assertThat(preview).hasAttribute("data-question", question.get("id").asText());
    assertThat(preview.locator(".live-detail")).containsText(firstLine);
    List<String> options = new ArrayList<>();
    question.get("options").forEach(o -> options.add(o.asText().replace("`", "")));
    assertThat(preview.locator(".live-option .option-text")).hasText(options.toArray(String[]::new));
    assertThat(preview.locator(".live-option[disabled]")).hasCount(options.size()); // a preview cannot be answered

    // Pushed with a time limit: the countdown runs, the question is marked as asked.
    page.getByLabel("Time limit").selectOption("30");
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Push to class")).click();
    assertThat(page.locator("#live-body .countdown")).hasText(Pattern.compile("Time left: 0:(30|[12]\\d)"));
    assertThat(item.locator(".picker-pushed")).hasText(Pattern.compile("asked at \\d\\d:\\d\\d UTC"));
    assertThat(page.locator("#live-body .live-prompt")).hasText(question.get("prompt").asText().replace("`", ""));

    // Pacing saves as each box is ticked, and names the question.
    Locator hold = page.locator("#pacing label:has(input[data-hold='L1'])");
    assertThat(hold).containsText("Hold L1: ");
    assertThat(hold).hasText(Pattern.compile("Hold L1: .{10,}", Pattern.DOTALL)); // the question's words follow its id
    hold.locator("input").check();
    assertThat(page.locator("#dash-status")).hasText("Held: L1");

    // After a reload: the hold was saved, the question is still marked, the next unasked one is chosen, time runs on.
    page.reload();
    assertThat(page.locator("#dash-status")).hasText("Live.");
    assertThat(hold.locator("input")).isChecked();
    assertThat(item.locator(".picker-pushed")).hasText(Pattern.compile("asked at \\d\\d:\\d\\d UTC"));
    assertThat(item.locator("input")).not().isChecked();
    assertThat(page.locator(".picker-item[data-pushed=false] input:checked")).hasCount(1);
    assertThat(page.locator("#live-body .countdown")).hasText(Pattern.compile("Time left: 0:[0-2]\\d|Time is up\\."));

    page.setViewportSize(1920, 1080);
    noSidewaysScroll(page, "dashboard", overflow);
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Projector mode")).click();
    assertThat(page.locator("#projector-status")).hasText("Live.");
    assertThat(page.locator("#pacing")).hasCount(0);
    assertThat(page.locator("#question-list")).hasCount(0);
    assertThat(page.locator("#projector-body .live-prompt")).hasText(question.get("prompt").asText().replace("`", ""));
    for (int[] size : new int[][] {{1920, 1080}, {1280, 800}}) {
      page.setViewportSize(size[0], size[1]);
      String at = " at " + size[0] + "x" + size[1];
      // What the back row needs is on the first screen: the code, the link and the QR code, and the controls.
      for (String what : new String[] {"#join-code", "#join-link", ".projector-qr", ".projector-controls"}) {
        assertThat(page.locator(what)).isInViewport();
      }
      assertEquals(true, page.locator(".projector-qr").evaluate("i => i.complete && i.naturalWidth > 0"),
          "the QR code loads");
      assertTrue(page.locator(".projector-qr").boundingBox().width >= 200, "a QR code a phone scans from a seat" + at);
      assertTrue(fontSize(page.locator("#join-code")) >= 48, "the join code is large" + at);
      assertTrue(fontSize(page.locator("#projector-body .live-prompt")) >= 30, "the projected question is large" + at);
      noSidewaysScroll(page, "projector" + at, overflow);
    }
    page.setViewportSize(320, 640);
    noSidewaysScroll(page, "projector at 320x640", overflow);
    page.setViewportSize(1280, 800);
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Leave projector mode")).click();
    assertThat(page.locator("#pacing")).isVisible();

    for (int[] size : new int[][] {{390, 844}, {320, 640}}) {
      page.setViewportSize(size[0], size[1]);
      noSidewaysScroll(page, "dashboard at " + size[0] + " px", overflow);
    }
    page.navigate(url("/teach"));
    for (int[] size : new int[][] {{320, 640}, {390, 844}}) {
      page.setViewportSize(size[0], size[1]);
      noSidewaysScroll(page, "class list at " + size[0] + " px", overflow);
    }
    assertEquals(List.of(), overflow, "pages that scroll sideways");
  }
}
