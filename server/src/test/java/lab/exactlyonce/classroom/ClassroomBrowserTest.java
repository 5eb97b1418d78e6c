package lab.exactlyonce.classroom;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An instructor and a student, each in their own browser context, run a live question together. */
class ClassroomBrowserTest extends BrowserTest {
  @Override
  protected TestServer startServer() {
    return TestServer.start(Client.config());
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
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Projector mode")).click();
    assertThat(page.locator("#pacing")).isHidden();
    found.addAll(scan(page, "projector mode"));

    BrowserContext studentContext = newContext(new Browser.NewContextOptions());
    try {
      Page student = studentContext.newPage();
      student.navigate(url("/join?code=" + room.get("code").asText()));
      found.addAll(scan(student, "join"));
      student.getByLabel("Nickname", new Page.GetByLabelOptions().setExact(false)).fill("Bea");
      student.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Join")).click();
      assertThat(student.locator(".live-question[data-state=open] .countdown")).isVisible();
      found.addAll(scan(student, "student"));
    } finally {
      studentContext.close();
    }
    assertEquals(List.of(), found);
  }
}
