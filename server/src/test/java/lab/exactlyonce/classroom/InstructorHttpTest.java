package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The instructor side over HTTP: who may use the instructor pages and APIs, and the results CSV. */
class InstructorHttpTest extends ClassroomServerTest {
  @Test
  void sign_in_page_and_a_wrong_secret() {
    Client c = new Client(server);
    HttpResponse<String> page = c.get("/teach/login");
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("<input type=\"password\" name=\"secret\""), page.body());
    assertTrue(page.body().contains("in the file instructor-secret in its data directory"), "says where it is");
    HttpResponse<String> wrong = c.form("/teach/login", Map.of("secret", "guess"));
    assertEquals(401, wrong.statusCode());
    assertTrue(wrong.body().contains("That is not the instructor secret."));
    assertFalse(c.cookies.containsKey("eolab_instructor"));
  }

  @Test
  void the_right_secret_sets_a_strict_http_only_cookie_and_leads_to_the_class_list() {
    Client c = new Client(server);
    HttpResponse<String> res = c.form("/teach/login", Map.of("secret", SECRET, "next", "/teach"));
    assertEquals(303, res.statusCode());
    assertEquals("/teach", res.headers().firstValue("Location").orElseThrow());
    String cookie = res.headers().allValues("Set-Cookie").stream().filter(s -> s.startsWith("eolab_instructor=")).findFirst().orElseThrow();
    assertTrue(cookie.contains("HttpOnly"), cookie);
    assertTrue(cookie.contains("SameSite=Strict"), cookie);
    assertFalse(cookie.contains(SECRET), "the cookie does not carry the secret");
    HttpResponse<String> home = c.get("/teach");
    assertEquals(200, home.statusCode());
    assertTrue(home.body().contains("<h1>Your classes</h1>"));
    // the in-process sandbox of these tests stands for a host where nothing confines students' code
    assertTrue(home.body().contains("Sandbox: <strong>none</strong>, below hardened."), home.body());
  }

  @Test
  void a_sign_in_redirect_never_leaves_the_instructor_pages() {
    Client c = new Client(server);
    HttpResponse<String> res = c.form("/teach/login", Map.of("secret", SECRET, "next", "https://evil.example/"));
    assertEquals("/teach", res.headers().firstValue("Location").orElseThrow());
  }

  @Test
  void signing_out_ends_the_session() {
    Client c = Client.instructor(server, SECRET);
    assertEquals(303, c.form("/teach/logout", Map.of()).statusCode());
    assertEquals(401, c.get("/api/teach/classes").statusCode());
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "GET, /api/teach/classes",
      "GET, /api/teach/classes/CLASS",
      "POST, /api/teach/classes",
      "POST, /api/teach/classes/CLASS/code",
      "POST, /api/teach/classes/CLASS/close",
      "DELETE, /api/teach/classes/CLASS/students/STUDENT",
      "GET, /api/teach/classes/CLASS/questions",
      "POST, /api/teach/classes/CLASS/live/push",
      "POST, /api/teach/classes/CLASS/live/reveal",
      "POST, /api/teach/classes/CLASS/live/leaderboard",
      "POST, /api/teach/classes/CLASS/live/end",
      "PUT, /api/teach/classes/CLASS/holds",
      "GET, /api/teach/classes/CLASS/stream",
  })
  void instructor_apis_refuse_students_and_strangers(String method, String pathTemplate) {
    JsonNode room = newClass("Closed doors");
    Client student = Client.student(server, room.get("code").asText(), "Mallory");
    String learner = json(teacher.get("/api/teach/classes/" + room.get("id").asText())).get("students").get(0).get("learner").asText();
    String path = pathTemplate.replace("CLASS", room.get("id").asText()).replace("STUDENT", learner);
    for (Client who : List.of(new Client(server), student)) {
      HttpResponse<String> res = switch0(who, method, path);
      assertEquals(401, res.statusCode(), path);
      assertEquals(SIGN_IN, res.body());
    }
    Client forged = new Client(server);
    forged.cookies.put("eolab_instructor", "1700000000.AAAA.AAAA");
    assertEquals(401, switch0(forged, method, path).statusCode());
  }

  private static HttpResponse<String> switch0(Client who, String method, String path) {
    if (method.equals("GET")) return who.get(path);
    if (method.equals("POST")) return who.post(path, "{}");
    if (method.equals("PUT")) return who.put(path, "{}");
    return who.delete(path);
  }

  @ParameterizedTest
  @CsvSource({"/teach", "/teach/classes/CLASS", "/teach/classes/CLASS/qr.svg", "/teach/classes/CLASS/results.csv"})
  void instructor_pages_send_students_to_the_sign_in(String template) {
    JsonNode room = newClass("Pages");
    Client student = Client.student(server, room.get("code").asText(), "Eve");
    String path = template.replace("CLASS", room.get("id").asText());
    HttpResponse<String> res = student.get(path);
    assertEquals(303, res.statusCode());
    assertEquals("/teach/login?next=" + URLEncoder.encode(path, StandardCharsets.UTF_8),
        res.headers().firstValue("Location").orElseThrow());
    assertEquals(403, student.form("/teach/classes", Map.of("name", "mine")).statusCode());
  }

  // --- CSV

  @Test
  void the_csv_has_one_row_per_answer_and_defuses_formulas() {
    JsonNode room = newClass("CSV");
    String id = room.get("id").asText();
    Client evil = Client.student(server, room.get("code").asText(), "=HYPERLINK(\"x\")");
    Client fine = Client.student(server, room.get("code").asText(), "Fine, thanks");
    List<String> rounds = new ArrayList<>();
    JsonNode questions = json(teacher.get("/api/teach/classes/" + id + "/questions"));
    for (int i = 0; i < 2; i++) {
      String round = teacher.pushRound(id, questions.get(i).get("id").asText());
      rounds.add(round);
      String evilId = newId();
      evil.sendAnswer(id, evilId, round, 0);
      evil.sendAnswer(id, evilId, round, 0);
      fine.sendAnswer(id, newId(), round, 1);
    }
    HttpResponse<String> csv = teacher.get("/teach/classes/" + id + "/results.csv");
    assertEquals(200, csv.statusCode());
    assertEquals("text/csv; charset=utf-8", csv.headers().firstValue("Content-Type").orElseThrow());
    String[] lines = csv.body().split("\r\n");
    assertEquals(ResultsCsv.HEADER, lines[0]);
    assertEquals(5, lines.length, csv.body());
    assertTrue(lines[1].contains(",\"'=HYPERLINK(\"\"x\"\")\",live,"), lines[1]);
    assertTrue(lines[2].contains(",\"Fine, thanks\",live,"), lines[2]);
    for (String round : rounds) assertEquals(2, csv.body().split(round, -1).length - 1, "two answers in round " + round);
  }

  @Test
  void a_members_self_rated_quiz_answer_is_neither_right_nor_wrong_in_the_csv_or_on_the_dashboard() {
    JsonNode room = newClass("Self-rated");
    String id = room.get("id").asText();
    Client ana = Client.student(server, room.get("code").asText(), "Ana");
    HttpResponse<String> started = ana.post("/api/quiz/sessions", "{\"lesson\":\"exactly-once\",\"length\":1,\"topic\":\"Delivery guarantees\",\"seed\":1}");
    assertEquals(201, started.statusCode(), started.body());
    JsonNode session = json(started.body());
    JsonNode q = session.get("questions").get(0);
    assertEquals("self-graded", q.get("kind").asText());
    String event = newId();
    HttpResponse<String> rated = ana.post("/api/events", "{\"id\":\"" + event + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\","
        + "\"item\":\"" + q.get("item").asText() + "\",\"data\":{\"session\":\"" + session.get("id").asText()
        + "\",\"question\":\"" + q.get("id").asText() + "\",\"rating\":3}}");
    assertEquals(200, rated.statusCode(), rated.body());

    String[] lines = teacher.get("/teach/classes/" + id + "/results.csv").body().split("\r\n");
    assertEquals(2, lines.length, String.join("\n", lines));
    assertTrue(lines[1].contains(",Ana,quiz,") && lines[1].endsWith(",,,," + event + ",,,"),
        "no choice and no verdict: she rated herself Good, nobody checked it: " + lines[1]);
    assertTrue(teacher.get("/teach/classes/" + id).body().contains("No quiz answers yet."), "the dashboard counts no right answer");
  }

  @Test
  void csv_cells_are_quoted_and_formulas_defused() {
    assertEquals("plain", ResultsCsv.cell("plain"));
    assertEquals("\"'=1+1\"", ResultsCsv.cell("=1+1"));
    assertEquals("\"'+x\"", ResultsCsv.cell("+x"));
    assertEquals("\"'-x\"", ResultsCsv.cell("-x"));
    assertEquals("\"'@x\"", ResultsCsv.cell("@x"));
    assertEquals("\"a \"\"b\"\"\"", ResultsCsv.cell("a \"b\""));
    assertEquals("\"a\nb\"", ResultsCsv.cell("a\nb"));
  }

  @Test
  void the_pickers_questions_come_topic_by_topic_in_the_order_each_lesson_lists_its_topics() {
    String id = newClass("Order").get("id").asText();
    Map<String, List<String>> runs = new LinkedHashMap<>(); // by lesson: its topics as the list brings them
    json(teacher.get("/api/teach/classes/" + id + "/questions")).forEach(q -> {
      List<String> topics = runs.computeIfAbsent(q.get("lesson").asText(), lesson -> new ArrayList<>());
      String topic = q.get("topic").asText();
      if (topics.isEmpty() || !topics.get(topics.size() - 1).equals(topic)) topics.add(topic);
    });
    assertEquals(2, runs.size(), "both lessons' questions: " + runs.keySet());
    runs.forEach((lesson, topics) -> {
      List<String> vocabulary = new ArrayList<>();
      json(teacher.get("/api/lessons/" + lesson)).get("topics").forEach(t -> vocabulary.add(t.get("title").asText()));
      // A topic met twice would be in the runs twice, and the vocabulary holds each once.
      assertEquals(vocabulary.stream().filter(topics::contains).toList(), topics, lesson + ": each topic once, in order");
      assertTrue(topics.size() >= 3, lesson + " has questions in a few topics: " + topics);
    });
  }

  @Test
  void next_pushes_the_questions_not_asked_yet_in_the_pickers_order_with_the_last_time_limit() {
    String id = newClass("Next").get("id").asText();
    List<String> listOrder = new ArrayList<>(); // the picker's: grouped by topic, topics as they first appear
    Map<String, List<String>> byTopic = new java.util.LinkedHashMap<>();
    json(teacher.get("/api/teach/classes/" + id + "/questions")).forEach(q ->
        byTopic.computeIfAbsent(q.get("topic").asText(), t -> new ArrayList<>()).add(q.get("id").asText()));
    byTopic.values().forEach(listOrder::addAll);
    assertTrue(listOrder.size() >= 3, "the bank has a few questions: " + listOrder);

    JsonNode first = json(teacher.live(id, "push",
        "{\"question\":" + Client.quote(listOrder.get(1)) + ",\"timeLimit\":30}"));
    JsonNode next = json(teacher.live(id, "next", "{}"));
    assertEquals(listOrder.get(2), next.get("question").asText());
    assertEquals(first.get("session").asText(), next.get("session").asText());
    assertEquals(30, java.time.Duration.between(java.time.Instant.parse(next.get("pushedAt").asText()),
        java.time.Instant.parse(next.get("deadline").asText())).toSeconds(), "the last question's time limit");

    JsonNode untimed = json(teacher.live(id, "next", "{\"timeLimit\":20}"));
    assertEquals(listOrder.size() > 3 ? listOrder.get(3) : listOrder.get(0), untimed.get("question").asText());
    List<String> asked = new ArrayList<>(List.of(listOrder.get(1), listOrder.get(2), untimed.get("question").asText()));
    HttpResponse<String> res = teacher.live(id, "next", "{}");
    for (; res.statusCode() == 200; res = teacher.live(id, "next", "{}")) asked.add(json(res).get("question").asText());
    assertEquals(listOrder.size(), asked.size(), "each question once: " + asked);
    assertEquals(new java.util.HashSet<>(listOrder), new java.util.HashSet<>(asked));
    Client.assertError(409, "class 'Next' was asked every live question: choose one to ask "
        + "again on the dashboard", res);
    Client.assertError(400, "'timeLimit' must be a number of seconds from 5 to 600 (or left out for no limit), got 2",
        teacher.live(newClass("Short").get("id").asText(), "next", "{\"timeLimit\":2}"));
  }

  @Test
  void the_projector_page_shows_the_join_code_link_and_qr_and_hides_the_split_until_the_reveal() {
    JsonNode room = newClass("Projected");
    String id = room.get("id").asText();
    Client kim = Client.student(server, room.get("code").asText(), "Kim");
    String round = teacher.pushRound(id, firstQuestion(id));
    assertEquals(200, kim.sendAnswer(id, newId(), round, 0).statusCode());
    String page = teacher.get("/teach/classes/" + id + "/projector").body();
    assertTrue(page.contains("<strong id=\"join-code\">" + room.get("code").asText() + "</strong>"), page);
    String link = room.get("joinLink").asText();
    assertTrue(page.contains("<a href=\"" + link + "\" id=\"join-link\">" + link.substring(0, link.indexOf("/join"))
        + "<wbr>/join</a>"), "the link to type, the code apart: " + page);
    assertTrue(page.contains("src=\"/teach/classes/" + id + "/qr.svg?code=" + room.get("code").asText() + "\""), page);
    assertTrue(page.contains("<strong>1 of 1</strong>"), "how many answered shows: " + page);
    assertFalse(page.contains("class=\"count\""), "no count per option before the reveal: " + page);
    assertTrue(page.contains("data-counts=\"hidden\""), page);
    String live = teacher.get("/teach/classes/" + id + "/projector?counts=live").body();
    assertTrue(live.contains("<td class=\"count\" data-option=\"0\">1</td>"), "asked for live counts: " + live);
    assertTrue(teacher.get("/teach/classes/" + id).body().contains("<td class=\"count\" data-option=\"0\">1</td>"),
        "the instructor's own dashboard keeps its live histogram");
    teacher.live(id, "reveal", "{}");
    String revealed = teacher.get("/teach/classes/" + id + "/projector").body();
    assertTrue(revealed.contains("<td class=\"count\" data-option=\"0\">1</td>"), revealed);
    assertEquals(303, new Client(server).get("/teach/classes/" + id + "/projector").statusCode(), "sign-in first");
  }
}
