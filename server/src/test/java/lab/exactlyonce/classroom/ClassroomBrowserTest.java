package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.Cookie;
import lab.exactlyonce.AxeScan;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static lab.exactlyonce.classroom.Client.SECRET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An instructor and a student, each in their own browser context, run a live question together. */
class ClassroomBrowserTest extends BrowserTest {
  /** The server's clock: a test moves it on instead of sleeping. */
  private TestClock clock;

  @Override
  protected TestServer startServer() {
    Config config = Client.config();
    clock = TestClock.of(config);
    return TestServer.start(config);
  }

  @Test
  void instructor_pushes_a_question_the_student_answers_and_the_histogram_moves() {
    // The instructor signs in and creates a class.
    page.navigate(url("/teach"));
    assertTrue(page.url().endsWith("/teach/login?next=%2Fteach"), page.url());
    page.getByLabel("Instructor secret").fill(SECRET);
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
    page.getByLabel("Class name").fill("Period 3 <b>");
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Create class")).click();
    assertThat(page.locator("h1")).hasText("Period 3 <b>");
    assertThat(page.locator("#dash-status")).hasText("Live.");
    assertThat(page.locator("#join-code")).hasText(Pattern.compile("^[A-Z2-9]{6}$"));
    String code = page.locator("#join-code").textContent();

    // The student joins in another browser context.
    BrowserContext studentContext = newContext(new Browser.NewContextOptions());
    List<String> studentErrors = new ArrayList<>();
    Page student = studentContext.newPage();
    student.onConsoleMessage(m -> { if ("error".equals(m.type())) studentErrors.add(m.text()); });
    student.onPageError(e -> studentErrors.add("uncaught: " + e));
    try {
      student.navigate(url("/join?code=" + code.toLowerCase()));
      student.getByLabel("Nickname", new Page.GetByLabelOptions().setExact(false)).fill("Sam <i>");
      student.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Join")).click();
      assertThat(student.locator(".my-nickname")).hasText("Sam <i>");
      assertThat(student.locator("#live-body")).containsText("Waiting for your instructor");

      // The dashboard shows the student online.
      assertThat(page.locator("#roster-body")).containsText("1 of 1 online");
      assertThat(page.locator("#roster-body td.nickname")).hasText("Sam <i>");

      // Push the first question; it reaches the student's device.
      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Push to class")).click();
      Locator card = student.locator(".live-question[data-state=open]");
      assertThat(card).isVisible();
      assertThat(page.locator("#live-body .live-count")).containsText("0 of 1");
      Locator firstCount = page.locator("#live-body td.count[data-option='0']");
      assertThat(firstCount).hasText("0");

      // The student answers; the instructor's histogram changes without a reload.
      student.locator("button[data-choice='0']").click();
      assertThat(student.locator(".live-status")).hasText("Answer recorded. Wait for the reveal.");
      assertThat(firstCount).hasText("1");
      assertThat(page.locator("#live-body .live-count")).containsText("1 of 1");
      // The bar's length is a class (the policy refuses inline styles): the one answer is the whole histogram.
      assertThat(page.locator("#live-body tr:has(td.count[data-option='0']) .bar")).hasClass(Pattern.compile("\\bw-100\\b"));

      // On the projector and on the student's phone nothing scrolls sideways (a long question in the picker).
      page.setViewportSize(1920, 1080);
      assertEquals(false, page.evaluate("() => document.documentElement.scrollWidth > innerWidth"),
          "the dashboard at 1920x1080 scrolls sideways");
      student.setViewportSize(390, 844);
      assertEquals(false, student.evaluate("() => document.documentElement.scrollWidth > innerWidth"),
          "the student's page at 390x844 scrolls sideways");

      // Reveal: the student sees the right answer marked.
      page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reveal answer")).click();
      assertThat(student.locator(".live-question")).hasAttribute("data-state", "revealed");
      assertThat(student.locator(".live-option.right")).hasCount(1);
      assertThat(student.locator("button[data-choice='0']")).hasAttribute("aria-pressed", "true");
      assertThat(page.locator("#live-body")).containsText("Answer revealed to the class.");
    } finally {
      studentContext.close();
    }
    assertEquals(List.of(), studentErrors, "the student's page logged errors");
  }

  @Test
  void a_held_ladder_answer_appears_on_the_students_lesson_page_when_released() {
    Client teacher = Client.instructor(server, SECRET);
    var room = Client.json(teacher.post("/api/teach/classes", "{\"name\":\"Pacing\"}"));
    String id = room.get("id").asText();
    assertEquals(200, teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L1\"]}").statusCode());

    page.navigate(url("/join?code=" + room.get("code").asText()));
    page.getByLabel("Nickname", new Page.GetByLabelOptions().setExact(false)).fill("Reader");
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Join")).click();
    assertThat(page.locator(".my-nickname")).hasText("Reader");

    page.navigate(url("/lessons/exactly-once#qa/L1"));
    Locator answer = page.locator("[id='qa/L1'] > details");
    answer.locator("summary").click();
    assertThat(answer).containsText("Your instructor will release this answer.");
    assertThat(answer).not().containsText("A source that can be replayed");
    Locator twin = page.locator("[id='qa/iq1'] > details");
    assertThat(twin).containsText("Your instructor will release this answer.");

    assertEquals("{\"held\":[],\"released\":[\"L1\"]}", teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[]}").body());
    assertThat(answer).containsText("A source that can be replayed from stored positions");
    assertThat(answer).not().hasAttribute("data-held", "L1");
    assertThat(twin).containsText("A replayable source; a consistent snapshot of the state");
    assertThat(twin).not().hasAttribute("data-held", "L1");
  }

  private static List<String> scan(Page on, String where) {
    return AxeScan.seriousViolations(on, where);
  }

  @Test
  void classroom_pages_have_no_serious_accessibility_violations() throws Exception {
    List<String> found = new ArrayList<>();
    page.navigate(url("/teach/login"));
    found.addAll(scan(page, "sign-in"));
    Client teacher = Client.instructor(server, SECRET);
    var room = Client.json(teacher.post("/api/teach/classes", "{\"name\":\"Accessible\"}"));
    String id = room.get("id").asText();
    Client.student(server, room.get("code").asText(), "Ally");
    String question = Client.json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
    teacher.live(id, "push", "{\"question\":" + Client.quote(question) + ",\"timeLimit\":300}");
    teacher.live(id, "leaderboard", "{\"show\":true}");
    context.addCookies(List.of(new Cookie("eolab_instructor", teacher.cookies.get("eolab_instructor"))
        .setUrl(url("/"))));
    page.navigate(url("/teach"));
    found.addAll(scan(page, "classes"));
    page.navigate(url("/teach/classes/" + id));
    assertThat(page.locator("#dash-status")).hasText("Live.");
    assertThat(page.locator("#live-body .countdown")).isVisible();
    found.addAll(scan(page, "dashboard"));
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Projector mode")).click();
    assertThat(page.locator("#projector-status")).hasText("Live.");
    for (int[] size : new int[][] {{1920, 1080}, {1280, 800}}) {
      page.setViewportSize(size[0], size[1]);
      found.addAll(scan(page, "projector mode at " + size[0] + " px"));
    }

    BrowserContext studentContext = newContext(new Browser.NewContextOptions());
    try {
      Page student = studentContext.newPage();
      student.navigate(url("/join?code=" + room.get("code").asText()));
      found.addAll(scan(student, "join"));
      student.getByLabel("Nickname", new Page.GetByLabelOptions().setExact(false)).fill("Bea");
      student.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Join")).click();
      assertThat(student.locator(".live-question[data-state=open] .countdown")).isVisible();
      found.addAll(scan(student, "student"));
      student.locator("button[data-choice='0']").click();
      assertThat(student.locator(".live-status")).hasText("Answer recorded. Wait for the reveal.");
    } finally {
      studentContext.close();
    }
    page.keyboard().press("r");
    assertThat(page.locator("#projector-body .leaderboard")).isVisible();
    found.addAll(scan(page, "projector mode, revealed with the leaderboard"));
    page.onceDialog(dialog -> dialog.accept());   // ending a session asks first
    page.keyboard().press("e");
    assertThat(page.locator("#projector-body .podium")).isVisible();
    found.addAll(scan(page, "projector mode, the podium"));
    assertEquals(List.of(), found);
  }

  @Test
  void the_instructor_runs_a_class_from_the_projector_with_its_buttons_and_keys() {
    Client teacher = Client.instructor(server, SECRET);
    JsonNode room = Client.json(teacher.post("/api/teach/classes", "{\"name\":\"Projected\"}"));
    String id = room.get("id").asText();
    Client kim = Client.student(server, room.get("code").asText(), "Kim");
    JsonNode question = Client.json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0);
    String round = Client.json(teacher.live(id, "push", "{\"question\":" + Client.quote(question.get("id").asText())
        + ",\"timeLimit\":30}")).get("round").asText();
    context.addCookies(List.of(new Cookie("eolab_instructor", teacher.cookies.get("eolab_instructor"))
        .setUrl(url("/"))));
    page.setViewportSize(1920, 1080);
    page.clock().install(); // the page's countdown runs on a clock the test moves
    page.navigate(url("/teach/classes/" + id));
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Projector mode")).click();
    assertTrue(page.url().endsWith("/teach/classes/" + id + "/projector"), page.url());
    assertThat(page.locator("#projector-status")).hasText("Live.");

    // How to join, readable from the back: the code, the link and its QR code.
    assertThat(page.locator("#join-code")).hasText(room.get("code").asText());
    String joinLink = room.get("joinLink").asText();
    assertThat(page.locator("#join-link")).hasText(joinLink.substring(0, joinLink.indexOf('?'))); // the code follows
    assertThat(page.locator("#join-link")).hasAttribute("href", joinLink);
    assertThat(page.getByAltText("QR code for the join link")).isVisible();

    // A visual countdown that shrinks, its time in words for screen readers.
    Locator live = page.locator("#projector-body .projector-live");
    Locator timer = live.getByRole(AriaRole.TIMER);
    assertThat(timer).hasText(Pattern.compile("Time left: 0:(30|2\\d)"));
    // From here the page's time moves only when the test moves it (a busy host must not eat the countdown). A pushed
    // update (a student coming or going) may draw the panel again, its countdown from what the server's clock says
    // is left (30 s: the test's server clock stands still): ten seconds on, at most 20 s are left either way.
    // Paused a second ahead of the page's clock, which runs on while the pause is on its way (a busy host once let
    // it pass a pause 1 ms ahead: "Cannot fast-forward to the past").
    page.clock().pauseAt(((Number) page.evaluate("Date.now()")).longValue() + 1000);
    Locator bar = live.locator(".countdown-bar");
    assertThat(bar).isVisible();
    double full = bar.boundingBox().width;
    page.clock().runFor(10_000);
    assertThat(timer).hasText(Pattern.compile("Time left: 0:(1\\d|20)"));
    assertThat(bar).isVisible();
    double later = bar.boundingBox().width;
    assertTrue(later < full * 0.8 && later > 0, "the bar shrinks with the time left: " + full + " then " + later);

    // An answer arrives: the room sees how many answered, never which way, until the reveal.
    int right = question.get("answer").asInt();
    assertEquals(200, kim.sendAnswer(id, Client.newId(), round, right).statusCode());
    assertThat(live.locator(".live-count")).hasText("1 of 1 students present answered");
    assertThat(live).hasAttribute("data-counts", "hidden");
    assertThat(live.locator(".projector-options li")).hasCount(question.get("options").size());
    assertThat(live.locator("td.count")).hasCount(0);

    // The keys show on the page and are not commands while typing in a field.
    assertThat(page.locator("button[data-action=reveal] kbd")).hasText("R");
    assertThat(page.locator("button[data-action=next] kbd")).hasText("N");
    assertThat(page.locator("button[data-action=leaderboard] kbd")).hasText("L");
    assertThat(page.locator("button[data-action=end] kbd")).hasText("E");
    page.evaluate("() => document.querySelector('.projector-controls').append(Object.assign("
        + "document.createElement('input'), {id: 'typing', 'aria-label': 'A field'}))");
    page.locator("#typing").pressSequentially("rnle");
    page.locator("#typing").evaluate("i => { i.blur(); i.remove(); }");
    assertThat(live).hasAttribute("data-state", "open");
    assertThat(live).hasAttribute("data-round", round);

    // R reveals: the counts and the right answer show.
    page.keyboard().press("r");
    assertThat(live).hasAttribute("data-state", "revealed");
    assertThat(live.locator("td.count[data-option='" + right + "']")).hasText("1");
    assertThat(live.locator(".histogram th").nth(right)).containsText("✓");

    // L shows the leaderboard; N asks the next question, with the same time limit, its counts hidden again.
    page.keyboard().press("l");
    assertThat(page.locator("button[data-action=leaderboard]")).hasAttribute("aria-pressed", "true");
    assertThat(live.locator(".leaderboard li")).hasText(Pattern.compile("^Kim \\d{3,4} points$"));
    page.keyboard().press("n");
    assertThat(live).hasAttribute("data-state", "open");
    assertThat(live).not().hasAttribute("data-round", round);
    assertThat(live).hasAttribute("data-counts", "hidden");
    assertThat(timer).hasText(Pattern.compile("Time left: 0:(30|2\\d)"));

    // Time runs out on the server's clock; the button reveals; End session shows the podium.
    clock.advance(Duration.ofSeconds(31));
    assertThat(live).hasAttribute("data-state", "timeup");
    assertThat(live.locator(".projector-note")).hasText("Time is up. Press R to reveal the answer.");
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reveal")).click();
    assertThat(live).hasAttribute("data-state", "revealed");
    // a stray press of End is answered with a question, and "no" leaves the session running
    page.onceDialog(dialog -> dialog.dismiss());
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("End session")).click();
    assertThat(live).hasAttribute("data-state", "revealed");
    List<String> asked = new ArrayList<>();
    page.onceDialog(dialog -> {
      asked.add(dialog.message());
      dialog.accept();
    });
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("End session")).click();
    assertThat(live).hasAttribute("data-state", "podium");
    assertEquals(List.of("End this session? Its podium shows, and the next question starts a new session with a clean "
        + "board."), asked);
    assertThat(live.locator(".podium h3")).hasText("Podium");
    assertThat(live.locator(".podium-list li.place-1")).hasText(Pattern.compile("^Kim \\d{3,4} points$"));

    // Live counts, when asked for, show the split while the room answers.
    page.getByLabel("Show answer counts live").check();
    assertThat(page.locator("#projector-status")).hasText("Live.");
    assertTrue(page.url().endsWith("/projector?counts=live"), page.url());
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Next question")).click();
    assertThat(live).hasAttribute("data-counts", "shown");
    assertThat(live.locator("td.count")).hasCount(live.locator("tr").count());
  }
}
