package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.ReferenceSolutions;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.lesson.BundledLessons;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.assertError;
import static lab.exactlyonce.classroom.Client.error;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The classes, joining, live questions, the dashboard and the limits over HTTP, including the refusals, with whole messages. */
class ClassroomHttpTest extends ClassroomServerTest {
  // --- classes

  @Test
  void a_new_class_has_a_code_from_the_unambiguous_alphabet_a_join_link_and_a_qr_code() {
    JsonNode room = newClass("Stream processing 101");
    String code = room.get("code").asText();
    assertTrue(code.matches("[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}"), code);
    assertEquals(server.url("/join?code=" + code), room.get("joinLink").asText());
    assertEquals("Stream processing 101", room.get("name").asText());
    HttpResponse<String> qr = teacher.get(room.get("qr").asText());
    assertEquals(200, qr.statusCode());
    assertEquals("image/svg+xml", qr.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(qr.body().startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), qr.body());
    assertTrue(qr.body().contains("<title>Join Stream processing 101 with code " + code + "</title>"));
    HttpResponse<String> dash = teacher.get("/teach/classes/" + room.get("id").asText());
    assertEquals(200, dash.statusCode());
    assertTrue(dash.body().contains(">" + code + "</strong>"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{\"name\":\"\"}| 'name' is required: what do you call this class?",
      "{\"name\":\"x\",\"lesson\":\"nope\"}| {unknown lesson 'nope'}",
      "{\"name\":\"x\",\"size\":3}| unknown field 'size'; the fields are 'name' and 'lesson'",
      "{\"name\":\"" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "\"}| 'name' is 81 characters; the limit is 80",
  })
  void bad_class_requests_name_the_problem(String body, String message) {
    assertError(400, message.replace("{unknown lesson 'nope'}", BundledLessons.unknown("nope")),
        teacher.post("/api/teach/classes", body));
  }

  @Test
  void the_class_form_creates_a_class_and_leads_to_its_dashboard() {
    HttpResponse<String> res = teacher.form("/teach/classes", Map.of("name", "Form class", "lesson", "exactly-once"));
    assertEquals(303, res.statusCode());
    assertTrue(res.headers().firstValue("Location").orElseThrow().startsWith("/teach/classes/"));
  }

  // --- joining

  @Test
  void students_join_with_a_code_and_a_nickname_unique_in_the_class_ignoring_case() {
    JsonNode room = newClass("Join me");
    String code = room.get("code").asText();
    Client ada = new Client(server);
    HttpResponse<String> joined = ada.join(code.toLowerCase(), "  Ada  ");
    assertEquals(201, joined.statusCode(), joined.body());
    String id = room.get("id").asText();
    assertEquals("{\"class\":\"" + id + "\",\"name\":\"Join me\",\"nickname\":\"Ada\",\"page\":\"/classes/" + id
        + "\",\"stream\":\"/api/classes/" + id + "/stream\"}", joined.body());
    assertEquals(200, ada.join(code, "Ada").statusCode(), "joining again is the same membership");
    assertError(409, "the nickname 'ADA' is taken in this class; pick another", new Client(server).join(code, "ADA"));
    assertError(409, "the nickname 'Ａｄａ' is taken in this class; pick another", new Client(server).join(code, "Ａｄａ"));
    assertEquals(201, new Client(server).join(code, "👩‍💻 Dev").statusCode(), "a joiner inside an emoji is fine");
    assertEquals(2, json(teacher.get("/api/teach/classes/" + id)).get("students").size());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{\"code\":\"CODE\",\"nickname\":\"   \"}| 400| 'nickname' must not be empty",
      "{\"code\":\"CODE\",\"nickname\":\"abcdefghijklmnopqrstuvwxy\"}| 400| 'nickname' is 25 characters; the limit is 24",
      "{\"code\":\"CODE\",\"nickname\":\"a\\u0007b\"}| 400| 'nickname' must not contain the control character U+0007 (BEL)",
      "{\"code\":\"CODE\",\"nickname\":\"Kim\\ud83d\"}| 400| 'nickname' must not contain a broken character (the unpaired surrogate U+D83D, half of an emoji or symbol)",
      "{\"code\":\"CODE\",\"nickname\":\"\\u202enimda\"}| 400| 'nickname' must not contain the bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE), which can make a name read backwards",
      "{\"code\":\"CODE\",\"nickname\":\"Ki\\u200bm\"}| 400| 'nickname' must not contain the invisible character U+200B (ZERO WIDTH SPACE)",
      "{\"code\":\"CODE\",\"nickname\":\"\\u3164\"}| 400| 'nickname' must not contain the invisible character U+3164 (HANGUL FILLER)",
      "{\"code\":\"CODE\",\"nickname\":\"Kim\\u200d\"}| 400| 'nickname' must not contain the invisible character U+200D (ZERO WIDTH JOINER)",
      "{\"code\":\"CODE\"}| 400| 'nickname' is required",
      "{\"code\":\"\",\"nickname\":\"Bo\"}| 400| 'code' is required: the 6-character code your instructor shows",
      "{\"code\":\"ZZZZZZ\",\"nickname\":\"Bo\"}| 404| no class has the join code 'ZZZZZZ'; check it with your instructor",
      "{\"code\":\"O0I1L!\",\"nickname\":\"Bo\"}| 404| no class has the join code 'O0I1L!'; check it with your instructor",
  })
  void bad_joins_name_the_problem_and_store_nothing(String template, int status, String message) {
    JsonNode room = newClass("Strict");
    Client c = new Client(server);
    assertError(status, message, c.post("/api/join", template.replace("CODE", room.get("code").asText())));
    assertFalse(c.cookies.containsKey("eolab_learner"), "no learner is made for a refused join");
    assertEquals(0, json(teacher.get("/api/teach/classes/" + room.get("id").asText())).get("students").size());
  }

  @Test
  void the_join_form_shows_errors_on_the_page_and_redirects_on_success() {
    JsonNode room = newClass("Form join");
    Client c = new Client(server);
    HttpResponse<String> page = c.get("/join?code=" + room.get("code").asText());
    assertTrue(page.body().contains("value=\"" + room.get("code").asText() + "\""));
    HttpResponse<String> bad = c.form("/join", Map.of("code", room.get("code").asText(), "nickname", ""));
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().contains("&#x27;nickname&#x27; must not be empty") || bad.body().contains("'nickname' must not be empty"), bad.body());
    HttpResponse<String> ok = c.form("/join", Map.of("code", room.get("code").asText(), "nickname", "<b>Bold</b>"));
    assertEquals(303, ok.statusCode());
    assertEquals("/classes/" + room.get("id").asText(), ok.headers().firstValue("Location").orElseThrow());
    HttpResponse<String> mine = c.get("/classes/" + room.get("id").asText());
    assertEquals(200, mine.statusCode());
    assertTrue(mine.body().contains("&lt;b&gt;Bold&lt;/b&gt;"), "the nickname is escaped");
    assertFalse(mine.body().contains("<b>Bold</b>"));
    HttpResponse<String> dash = teacher.get("/teach/classes/" + room.get("id").asText());
    assertTrue(dash.body().contains("&lt;b&gt;Bold&lt;/b&gt;"));
    assertFalse(dash.body().contains("<b>Bold</b>"));
  }

  @Test
  void cross_site_joins_and_class_forms_are_refused() {
    JsonNode room = newClass("CSRF");
    var request = HttpRequest.newBuilder(URI.create(server.url("/api/join")))
        .header("Content-Type", "application/json").header("Origin", "https://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"" + room.get("code").asText() + "\",\"nickname\":\"x\"}"))
        .build();
    assertError(403, "cross-site request refused: Origin 'https://evil.example' is not this site (127.0.0.1:" + server.app().port() + ")",
        server.sendAsIs(request));
    var form = HttpRequest.newBuilder(URI.create(server.url("/teach/classes")))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", teacher.cookieHeader())
        .header("Sec-Fetch-Site", "cross-site").POST(HttpRequest.BodyPublishers.ofString("name=x")).build();
    assertEquals(403, server.sendAsIs(form).statusCode());
  }

  @Test
  void rotating_the_code_retires_the_old_one() {
    JsonNode room = newClass("Rotate");
    String old = room.get("code").asText();
    JsonNode rotated = json(teacher.post("/api/teach/classes/" + room.get("id").asText() + "/code", "{}"));
    String fresh = rotated.get("code").asText();
    assertFalse(old.equals(fresh));
    assertError(404, "no class has the join code '" + old + "'; check it with your instructor", new Client(server).join(old, "Late"));
    Client.student(server, fresh, "Late");
  }

  @Test
  void a_removed_student_loses_the_class_and_cannot_rejoin() {
    JsonNode room = newClass("Remove");
    String id = room.get("id").asText();
    Client bob = Client.student(server, room.get("code").asText(), "Bob");
    String learner = json(teacher.get("/api/teach/classes/" + id)).get("students").get(0).get("learner").asText();
    HttpResponse<String> removed = teacher.delete("/api/teach/classes/" + id + "/students/" + learner);
    assertEquals("{\"removed\":\"" + learner + "\",\"nickname\":\"Bob\"}", removed.body());
    assertEquals(error("you were removed from class 'Remove'"), bob.get("/api/classes/" + id + "/state").body());
    assertEquals(403, bob.get("/classes/" + id).statusCode());
    assertError(403, "you were removed from class 'Remove'", bob.join(room.get("code").asText(), "Bob2"));
    assertEquals(error("class has no student '" + learner + "'"), teacher.delete("/api/teach/classes/" + id + "/students/" + learner).body());
  }

  @Test
  void a_closed_class_takes_no_joins_and_no_answers() {
    JsonNode room = newClass("Closing");
    String id = room.get("id").asText();
    Client amy = Client.student(server, room.get("code").asText(), "Amy");
    String round = teacher.pushRound(id, firstQuestion(id));
    JsonNode closed = json(teacher.post("/api/teach/classes/" + id + "/close", "{}"));
    assertTrue(closed.get("closed").asBoolean());
    assertError(404, "class 'Closing' is closed", new Client(server).join(room.get("code").asText(), "Zed"));
    assertError(409, "class 'Closing' is closed", amy.sendAnswer(id, newId(), round, 0));
    assertEquals(error("class 'Closing' is closed"), teacher.push(id, "x").body());
  }

  @Test
  void a_student_cannot_read_another_class() {
    JsonNode mine = newClass("Mine");
    JsonNode theirs = newClass("Theirs");
    Client s = Client.student(server, mine.get("code").asText(), "Nosy");
    String other = theirs.get("id").asText();
    assertEquals(NOT_MEMBER, s.get("/api/classes/" + other + "/state").body());
    assertEquals(403, s.get("/api/classes/" + other + "/stream").statusCode());
    assertEquals(NOT_MEMBER, s.get("/api/classes/" + other + "/stream").body());
    assertEquals(403, s.get("/classes/" + other).statusCode());
    assertEquals(NOT_MEMBER, s.sendAnswer(other, newId(), "r", 0).body());
    assertEquals(NOT_MEMBER, new Client(server).get("/api/classes/" + mine.get("id").asText() + "/state").body());
    assertError(404, "no class 'no-such-class'", teacher.get("/api/teach/classes/no-such-class/stream"));
    assertError(404, "no class 'no-such-class'", s.get("/api/classes/no-such-class/state"));
  }

  // --- live questions

  @Test
  void a_pushed_question_is_answered_exactly_once_and_revealed() {
    JsonNode room = newClass("Live");
    String id = room.get("id").asText();
    Client ann = Client.student(server, room.get("code").asText(), "Ann");
    Client ben = Client.student(server, room.get("code").asText(), "Ben");
    assertEquals("{\"round\":null,\"html\":", ann.get("/api/classes/" + id + "/state").body().substring(0, 21));

    String question = firstQuestion(id);
    JsonNode pushed = json(teacher.push(id, question));
    String round = pushed.get("round").asText();
    JsonNode state = json(ann.get("/api/classes/" + id + "/state"));
    assertEquals(round, state.get("round").asText());
    assertEquals(question, state.get("question").asText());
    assertTrue(state.get("html").asText().contains("data-choice=\"0\""));

    String annId = newId();
    HttpResponse<String> first = ann.sendAnswer(id, annId, round, 1);
    assertEquals(200, first.statusCode(), first.body());
    JsonNode body = json(first);
    assertEquals(annId, body.get("id").asText());
    assertEquals(1, body.get("choice").asInt());
    HttpResponse<String> resend = ann.sendAnswer(id, annId, round, 1);
    assertEquals(first.body(), resend.body(), "a resend returns the original response");
    assertError(409, "answer id '" + annId + "' was already used for a different answer; nothing was stored",
        ann.sendAnswer(id, annId, round, 0));
    assertError(409, "you already answered this question; your first answer counts", ann.sendAnswer(id, newId(), round, 0));
    assertEquals(200, ben.sendAnswer(id, newId(), round, 0).statusCode());

    HttpResponse<String> badChoice = ben.sendAnswer(id, newId(), round, 99);
    assertEquals(400, badChoice.statusCode());
    assertTrue(badChoice.body().startsWith("{\"error\":\"'choice' must be an option index from 0 to "), badChoice.body());
    assertEquals(error("'id' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10, got 'nope'"),
        ben.sendAnswer(id, "nope", round, 0).body());
    assertEquals(error("this class has no question round 'nope'"), ben.sendAnswer(id, newId(), "nope", 0).body());

    JsonNode revealed = json(teacher.live(id, "reveal", "{}"));
    assertEquals(1, revealed.get("counts").get(0).asInt());
    assertEquals(1, revealed.get("counts").get(1).asInt());
    assertError(409, "question round '" + round + "' is closed: answers are no longer accepted", ben.sendAnswer(id, newId(), round, 1));
    assertEquals(first.body(), ann.sendAnswer(id, annId, round, 1).body(), "a late retry still gets the original");

    JsonNode export = json(ann.get("/api/me/export"));
    int answers = 0;
    for (JsonNode e : export.get("events")) if (e.get("type").asText().equals("quiz.answer")) answers++;
    assertEquals(1, answers, "one stored answer for all the sends");
    assertEquals("Ann", export.get("classes").get(0).get("nickname").asText());
    assertEquals("Live", export.get("classes").get(0).get("class").asText());

    assertEquals("{\"ended\":true}", teacher.live(id, "end", "{}").body());
    assertEquals(error("no question is open in class 'Live'"), teacher.live(id, "reveal", "{}").body());
  }

  @Test
  void pushing_needs_a_question_that_can_be_asked_live() {
    JsonNode room = newClass("Push");
    String id = room.get("id").asText();
    assertError(404, "no lesson has a question 'exactly-once/nope' that can be asked live (choice, true/false or predict-the-output)",
        teacher.push(id, "exactly-once/nope"));
    assertEquals(error("'question' is required"), teacher.live(id, "push", "{}").body());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "0| 'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got 0",
      "-30| 'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got -30",
      "4| 'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got 4",
      "601| 'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got 601",
      "2147483647| 'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got 2147483647",
      "99999999999| 'timeLimit' must be a whole number, got 99999999999",
      "2.5| 'timeLimit' must be a whole number, got 2.5",
      "1e3| 'timeLimit' must be a whole number, got 1000.0",
      "`\"30\"`| 'timeLimit' must be a whole number, got \"30\"",
      "true| 'timeLimit' must be a whole number, got true",
      "[30]| 'timeLimit' must be a whole number, got [30]",
      "{\"seconds\":30}| 'timeLimit' must be a whole number, got {\"seconds\":30}",
  })
  void absurd_time_limits_are_refused_and_open_no_round(String limit, String message) {
    JsonNode room = newClass("Timed");
    String id = room.get("id").asText();
    Client watcher = Client.student(server, room.get("code").asText(), "Watcher");
    String body = "{\"question\":" + Client.quote(firstQuestion(id)) + ",\"timeLimit\":" + limit + "}";
    assertError(400, message, teacher.live(id, "push", body));
    assertTrue(watcher.get("/api/classes/" + id + "/state").body().startsWith("{\"round\":null,"), "no round was opened");
  }

  @Test
  void a_time_limit_is_sent_with_the_question_and_null_means_none() {
    JsonNode room = newClass("Limits");
    String id = room.get("id").asText();
    Client student = Client.student(server, room.get("code").asText(), "Tess");
    String question = Client.quote(firstQuestion(id));
    JsonNode timed = json(teacher.live(id, "push", "{\"question\":" + question + ",\"timeLimit\":600}"));
    JsonNode state = json(student.get("/api/classes/" + id + "/state"));
    assertEquals(600, state.get("timeLimit").asInt());
    assertTrue(state.get("remainingMs").asLong() > 0 && state.get("remainingMs").asLong() <= 600_000, state.toString());
    assertTrue(state.get("html").asText().contains("class=\"countdown\" role=\"timer\""), state.get("html").asText());
    assertEquals(600, Duration.between(Instant.parse(timed.get("pushedAt").asText()),
        Instant.parse(timed.get("deadline").asText())).toSeconds());
    JsonNode untimed = json(teacher.live(id, "push", "{\"question\":" + question + ",\"timeLimit\":null}"));
    assertTrue(untimed.get("deadline").isNull(), untimed.toString());
    JsonNode open = json(student.get("/api/classes/" + id + "/state"));
    assertTrue(open.get("timeLimit").isNull());
    assertFalse(open.get("html").asText().contains("countdown"), "no countdown without a limit");
  }

  @Test
  void the_leaderboard_can_be_named_or_anonymous() {
    JsonNode room = newClass("Board");
    String id = room.get("id").asText();
    assertEquals("{\"leaderboard\":\"anonymous\"}", teacher.live(id, "leaderboard", "{\"show\":true,\"anonymous\":true}").body());
    assertEquals("{\"leaderboard\":\"named\"}", teacher.live(id, "leaderboard", "{\"show\":true}").body());
    assertEquals("{\"leaderboard\":\"off\"}", teacher.live(id, "leaderboard", "{\"show\":false}").body());
    assertEquals(error("'show' must be true or false, got \"yes\""), teacher.live(id, "leaderboard", "{\"show\":\"yes\"}").body());
  }

  // --- the live game

  /** Opens {@code who}'s stream of the class, idle before a push: they are present while it is open. */
  private ClassroomLiveTest.Stream present(Client who, String classId) {
    ClassroomLiveTest.Stream stream = new ClassroomLiveTest.Stream(server, who, "/api/classes/" + classId + "/stream");
    stream.next("idle", "Waiting");
    return stream;
  }

  private static int wrong(JsonNode question) {
    return question.get("answer").asInt() == 0 ? 1 : 0;
  }

  private JsonNode standing(Client who, String classId) {
    HttpResponse<String> res = who.get("/api/classes/" + classId + "/standing");
    assertEquals(200, res.statusCode(), res.body());
    return json(res);
  }

  @Test
  void absent_students_are_neither_ranked_nor_counted_and_equal_points_share_a_place() {
    JsonNode room = newClass("Fair board");
    String id = room.get("id").asText();
    String code = room.get("code").asText();
    Client gone = Client.student(server, code, "Gone"); // joined first, then left: never online in the session
    Client ben = Client.student(server, code, "Ben");
    Client ana = Client.student(server, code, "Ana");
    Client cy = Client.student(server, code, "Cy");
    try (var b = present(ben, id); var a = present(ana, id); var c = present(cy, id)) {
      JsonNode question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0);
      int right = question.get("answer").asInt();
      String round = teacher.pushRound(id, question.get("id").asText()); // untimed: every right answer earns 1000
      assertEquals(200, ben.sendAnswer(id, newId(), round, right).statusCode());
      assertEquals(200, ana.sendAnswer(id, newId(), round, right).statusCode());
      String counted = teacher.get("/teach/classes/" + id).body();
      assertTrue(counted.contains("<strong>2 of 3</strong> students present answered"),
          "Gone is not counted among those who could answer");
      assertEquals(200, cy.sendAnswer(id, newId(), round, wrong(question)).statusCode());
      teacher.live(id, "reveal", "{}");
      teacher.live(id, "leaderboard", "{\"show\":true}");

      String board = teacher.get("/teach/classes/" + id).body();
      assertTrue(board.contains("<ol class=\"leaderboard-list\" aria-label=\"Places out of 3\">"
          + line(1, "Ana", "1000 points") + line(1, "Ben", "1000 points") + line(3, "Cy", "0 points") + "</ol>"),
          "Ana and Ben share first place, listed by name; Cy is third, not second: " + board);
      assertFalse(board.contains(">Gone</span>"), "an absent student is not on the board");
      JsonNode benStands = standing(ben, id);
      assertEquals("{\"place\":1,\"of\":3,\"points\":1000,\"shared\":true}", place(benStands));
      assertEquals("{\"place\":3,\"of\":3,\"points\":0,\"shared\":false}", place(standing(cy, id)));
      assertEquals("{\"place\":null,\"of\":3,\"points\":0,\"shared\":false}", place(standing(gone, id)));
      assertFalse(benStands.get("ended").asBoolean());
    }
  }

  /** A named board's line for {@code nickname} on {@code place}. */
  private static String line(int place, String nickname, String points) {
    return "<li value=\"" + place + "\" class=\"place-" + place + "\"><span class=\"lb-name\">" + nickname
        + "</span> <span class=\"lb-score\">" + points + "</span></li>";
  }

  /** The place, board size, points and whether shared of a standing, as JSON. */
  private static String place(JsonNode standing) {
    return "{\"place\":" + standing.get("place") + ",\"of\":" + standing.get("of") + ",\"points\":"
        + standing.get("points") + ",\"shared\":" + standing.get("shared") + "}";
  }

  @Test
  void a_faster_right_answer_scores_more_each_student_sees_their_place_and_the_csv_keeps_every_time() {
    JsonNode room = newClass("Speed");
    String id = room.get("id").asText();
    Client quick = Client.student(server, room.get("code").asText(), "Quick");
    Client slow = Client.student(server, room.get("code").asText(), "Slow");
    try (var q = present(quick, id); var s = present(slow, id)) {
      JsonNode question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0);
      int right = question.get("answer").asInt();
      String round = json(teacher.live(id, "push", "{\"question\":" + Client.quote(question.get("id").asText())
          + ",\"timeLimit\":20}")).get("round").asText();
      assertEquals(200, quick.sendAnswer(id, newId(), round, right).statusCode());
      clock.advance(Duration.ofSeconds(10)); // half the countdown: Kahoot's rule gives 1000 * (1 - 0.5 / 2)
      assertEquals(200, slow.sendAnswer(id, newId(), round, right).statusCode());
      teacher.live(id, "leaderboard", "{\"show\":true}");
      teacher.live(id, "reveal", "{}");

      JsonNode first = standing(quick, id);
      JsonNode second = standing(slow, id);
      int quickPoints = first.get("points").asInt();
      int slowPoints = second.get("points").asInt();
      assertTrue(quickPoints >= 950 && quickPoints <= 1000, "an answer within a second or so: " + first);
      assertTrue(slowPoints > 700 && slowPoints <= 750, "an answer after half the countdown: " + second);
      assertEquals(1, first.get("place").asInt());
      assertEquals(2, second.get("place").asInt());
      String mine = s.next("leaderboard", "lb-place").get("html").asText();
      assertTrue(mine.contains("<p class=\"lb-mine\"><strong>You: </strong>"
          + "<span class=\"lb-place\">place 2 of 2</span>, "
          + "<span class=\"lb-points\">" + slowPoints + " points</span></p>"), mine);

      String[] lines = teacher.get("/teach/classes/" + id + "/results.csv").body().split("\r\n");
      assertTrue(lines[0].endsWith(",event_id,response_ms,time_limit_s,points"), lines[0]);
      String[] slowRow = lines[2].split(",");
      assertTrue(lines[2].contains(",Slow,live,"), lines[2]);
      long slowMs = Long.parseLong(slowRow[slowRow.length - 3]);
      assertTrue(slowMs >= 10_000 && slowMs < 12_000, "the response time within the countdown: " + lines[2]);
      assertEquals("20", slowRow[slowRow.length - 2]);
      assertEquals(String.valueOf(slowPoints), slowRow[slowRow.length - 1], "the points the board counted");
      assertTrue(lines[1].contains(",Quick,live,") && lines[1].endsWith(",20," + quickPoints), lines[1]);
    }
  }

  @Test
  void a_session_ends_on_its_podium_and_the_next_session_starts_with_a_clean_board() {
    JsonNode room = newClass("Podium");
    String id = room.get("id").asText();
    String code = room.get("code").asText();
    Client ann = Client.student(server, code, "Ann");
    Client bea = Client.student(server, code, "Bea");
    Client cal = Client.student(server, code, "Cal");
    Client dee = Client.student(server, code, "Dee");
    try (var a = present(ann, id); var b = present(bea, id); var c = present(cal, id); var d = present(dee, id)) {
      teacher.live(id, "leaderboard", "{\"show\":true}");
      JsonNode questions = json(teacher.get("/api/teach/classes/" + id + "/questions"));
      JsonNode question = questions.get(0);
      int right = question.get("answer").asInt();
      String round = teacher.pushRound(id, question.get("id").asText());
      for (Client who : List.of(ann, bea)) assertEquals(200, who.sendAnswer(id, newId(), round, right).statusCode());
      assertEquals(200, cal.sendAnswer(id, newId(), round, wrong(question)).statusCode()); // Dee watches only
      teacher.live(id, "reveal", "{}");
      String session = standing(ann, id).get("session").asText();
      teacher.live(id, "end", "{}");

      String dash = teacher.get("/teach/classes/" + id).body();
      assertTrue(dash.contains("Session over. Push a question to start a new session with a clean board."), dash);
      assertTrue(dash.contains("<h3>Podium</h3>"), dash);
      assertTrue(dash.contains(line(1, "Ann", "1000 points")) && dash.contains(line(1, "Bea", "1000 points"))
          && dash.contains(line(3, "Cal", "0 points")), dash);
      assertFalse(dash.contains(">Dee</span>"), "who never answered has no place on the podium");
      String calsPodium = c.next("leaderboard", "Podium").get("html").asText();
      assertTrue(calsPodium.contains("<span class=\"lb-place\">place 3 of 3</span>"), calsPodium);
      JsonNode ended = standing(cal, id);
      assertTrue(ended.get("ended").asBoolean());
      assertEquals(session, ended.get("session").asText());

      String next = teacher.pushRound(id, questions.get(1).get("id").asText());
      assertEquals(200, ann.sendAnswer(id, newId(), next, questions.get(1).get("answer").asInt()).statusCode());
      String fresh = a.next("leaderboard", "Leaderboard").get("html").asText();
      assertTrue(fresh.contains("No scores yet") && !fresh.contains("Podium"),
          "a new session, a clean board: " + fresh);
      JsonNode clean = standing(ann, id);
      assertNotEquals(session, clean.get("session").asText());
      assertEquals("{\"place\":null,\"of\":0,\"points\":0,\"shared\":false}", place(clean));
      assertTrue(teacher.get("/teach/classes/" + id).body().contains("No scores yet"),
          "the dashboard's board is clean too");
    }
  }

  // --- dashboard

  @Test
  void the_dashboard_shows_progress_quiz_results_sandbox_runs_exercises_and_the_leaderboard() throws Exception {
    JsonNode room = newClass("Dashboard");
    String id = room.get("id").asText();
    Client una = Client.student(server, room.get("code").asText(), "Una");
    Client vic = Client.student(server, room.get("code").asText(), "Vic");
    String section = json(una.get("/api/lessons/exactly-once")).get("sections").get(0).get("id").asText();
    assertEquals(200, una.post("/api/events", "{\"id\":\"" + newId() + "\",\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"" + section + "\"}").statusCode());
    for (String status : List.of("ok", "compile_error")) {
      HttpResponse<String> run = vic.post("/api/events", "{\"id\":\"" + newId() + "\",\"type\":\"snippet.run\",\"lesson\":\"exactly-once\",\"item\":\"sink-demo\",\"data\":{\"status\":\"" + status + "\"}}");
      assertEquals(200, run.statusCode(), run.body());
    }
    JsonNode question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0);
    int right = question.get("answer").asInt();
    int wrong = right == 0 ? 1 : 0;
    String round = teacher.pushRound(id, question.get("id").asText());
    una.sendAnswer(id, newId(), round, right);
    vic.sendAnswer(id, newId(), round, wrong);
    teacher.live(id, "reveal", "{}");
    teacher.live(id, "leaderboard", "{\"show\":true}");
    HttpResponse<String> fixed = una.post("/api/exercises/idempotent-payment/check",
        Client.JSON.writeValueAsString(Map.of("source", ReferenceSolutions.of("idempotent-payment"), "attempt", newId())));
    assertEquals(200, fixed.statusCode(), fixed.body());

    String dash = teacher.get("/teach/classes/" + id).body();
    assertTrue(dash.contains("<td class=\"heat heat-2\" data-exercises-passed=\"1\" title=\"passed: idempotent-payment\">1/3</td>"),
        "Una passed one of the three exercises: " + dash);
    assertTrue(dash.contains("<td class=\"heat heat-0\" data-exercises-passed=\"0\" title=\"none passed yet\">0/3</td>"), "Vic none");
    assertTrue(dash.contains("0 of 2 online"), "roster");
    assertTrue(dash.contains("<th scope=\"row\">Una</th><td class=\"heat heat-1\">1/"), "Una read one gist section");
    assertTrue(dash.contains("2 runs: <span class=\"outcome outcome-compile_error\">compile_error 1</span><span class=\"outcome outcome-ok\">ok 1</span>"), "sandbox outcomes");
    assertTrue(dash.contains("Vic ran sink-demo: <span class=\"outcome outcome-compile_error\">compile_error</span>"), "latest runs");
    assertTrue(dash.contains("Students by share of right answers (2 answered at least once)"), "distribution");
    assertTrue(dash.contains(" — 1 of 2 answers wrong</li>"), "hardest question");
    assertTrue(dash.contains("<span class=\"hard-prompt\">" + question.get("topic").asText() + ": "),
        "the hardest question names its topic, since many share a prompt: " + dash);
    assertTrue(dash.contains("<span class=\"lb-name\">Una</span> <span class=\"lb-score\">1000 points</span>"),
        "named leaderboard");
    teacher.live(id, "leaderboard", "{\"show\":true,\"anonymous\":true}");
    String anonymous = teacher.get("/teach/classes/" + id).body();
    assertTrue(anonymous.contains("<span class=\"lb-name\">Student 1</span> "
        + "<span class=\"lb-score\">1000 points</span>"), "anonymous leaderboard");
    assertFalse(anonymous.contains("<span class=\"lb-name\">Una</span>"));
  }

  // --- limits

  @Test
  void joins_answers_and_sign_ins_are_rate_limited_with_retry_after() {
    Config config = Client.config();
    try (TestServer small = TestServer.start(config.withClassroom(config.classroom().withLimits(3, 100, 2)))) {
      Client t = Client.instructor(small, SECRET);
      JsonNode room = json(t.post("/api/teach/classes", "{\"name\":\"Tiny\"}"));
      String code = room.get("code").asText();
      String id = room.get("id").asText();
      Client first = Client.student(small, code, "s0");
      for (int i = 1; i < 6; i++) Client.student(small, code, "s" + i); // joins that work are not limited per address
      for (int i = 0; i < 3; i++) assertEquals(404, new Client(small).join("ZZZZZZ", "typo" + i).statusCode());
      HttpResponse<String> res = new Client(small).join(code, "bot");
      assertEquals(429, res.statusCode());
      String retry = res.headers().firstValue("Retry-After").orElseThrow();
      assertEquals(error("too many failed joins from your address (a wrong code or nickname); try again in " + retry
          + " seconds"), res.body());
      assertTrue(Integer.parseInt(retry) >= 1 && Integer.parseInt(retry) <= 20, retry);

      first.sendAnswer(id, newId(), "r", 0);
      first.sendAnswer(id, newId(), "r", 0);
      HttpResponse<String> answers = first.sendAnswer(id, newId(), "r", 0);
      assertError(429, "too many answers; try again in " + answers.headers().firstValue("Retry-After").orElseThrow() + " seconds", answers);

      Client c = new Client(small);
      for (int i = 0; i < 10; i++) assertEquals(401, c.form("/teach/login", Map.of("secret", "guess" + i)).statusCode());
      HttpResponse<String> login = c.form("/teach/login", Map.of("secret", "guess-again"));
      assertEquals(429, login.statusCode(), "the eleventh wrong secret in a minute");
      assertTrue(login.headers().firstValue("Retry-After").isPresent());
      assertFalse(c.cookies.containsKey("eolab_instructor"));
    }
  }

  @Test
  void a_class_is_asked_a_question_of_every_lesson_and_each_answer_counts_in_its_round() {
    JsonNode room = newClass("Two lessons");
    String id = room.get("id").asText();
    Client student = Client.student(server, room.get("code").asText(), "Ada");
    Set<String> withLiveQuestions = new TreeSet<>();
    for (String lesson : BundledLessons.ids()) {
      for (JsonNode q : json(teacher.get("/api/quiz/lessons/" + lesson)).get("questions")) {
        if (Set.of("choice", "true-false").contains(q.get("kind").asText())) withLiveQuestions.add(lesson);
      }
    }
    assertTrue(withLiveQuestions.contains("exactly-once"), withLiveQuestions.toString());
    Map<String, JsonNode> firstOfLesson = new TreeMap<>();
    for (JsonNode q : json(teacher.get("/api/teach/classes/" + id + "/questions"))) {
      firstOfLesson.putIfAbsent(q.get("lesson").asText(), q);
    }
    assertTrue(firstOfLesson.keySet().containsAll(withLiveQuestions), "the class may be asked about every lesson: "
        + firstOfLesson.keySet());

    String dashboard = teacher.get("/teach/classes/" + id).body();
    for (JsonNode q : firstOfLesson.values()) {
      assertTrue(dashboard.contains("value=\"" + q.get("id").asText() + "\""), "the picker offers " + q.get("id"));
      String round = teacher.pushRound(id, q.get("id").asText());
      HttpResponse<String> answered = student.sendAnswer(id, newId(), round, q.get("answer").asInt());
      assertEquals(200, answered.statusCode(), answered.body());
      assertEquals(200, teacher.live(id, "reveal", "{}").statusCode());
    }
    String csv = teacher.get("/teach/classes/" + id + "/results.csv").body();
    for (JsonNode q : firstOfLesson.values()) {
      assertTrue(csv.contains("," + q.get("id").asText() + ","), "the results hold the answer to " + q.get("id") + ": " + csv);
    }
  }

}
