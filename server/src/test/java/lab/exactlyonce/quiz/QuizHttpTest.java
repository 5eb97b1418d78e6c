package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.lesson.BundledLessons;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Every quiz endpoint over HTTP against the bundled lesson, the good paths and the bad inputs. */
class QuizHttpTest extends ServerTest {
  private final QuestionBankLintTest.Linted written = QuestionBankLintTest.load(Path.of("lessons"), Path.of("snippets"), "exactly-once");

  @Test
  void the_lesson_header_links_the_quiz_and_the_entry_shows_due_count_and_start_form() {
    assertTrue(server.get("/lessons/exactly-once").body()
        .contains("<a href=\"/lessons/exactly-once/quiz\" id=\"quiz-link\">Take the quiz</a>"));
    HttpResponse<String> entry = new QuizClient(server).get("/lessons/exactly-once/quiz");
    assertEquals(200, entry.statusCode());
    assertTrue(entry.body().contains("<p id=\"quiz-due\" class=\"quiz-due\"><strong>0</strong> questions due today</p>"), entry.body());
    assertTrue(entry.body().contains("<form method=\"post\" action=\"/lessons/exactly-once/quiz\""));
    assertTrue(entry.body().contains("<input type=\"radio\" name=\"topic\" value=\"Sink strategies\"> Sink strategies"), entry.body());
    assertTrue(entry.body().contains("value=\"interview\""));
  }

  @Test
  void the_start_form_creates_a_session_and_redirects_to_it() {
    QuizClient learner = new QuizClient(server);
    HttpResponse<String> res = learner.postForm("/lessons/exactly-once/quiz", "mode=interview&length=3&topic=Sink+strategies");
    assertEquals(303, res.statusCode());
    String location = res.headers().firstValue("Location").orElseThrow();
    assertTrue(location.matches("/lessons/exactly-once/quiz/[0-9a-f-]{36}"), location);
    HttpResponse<String> page = learner.get(location);
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("data-mode=\"interview\""));
    assertTrue(page.body().contains("Question 3 of 3"));
    assertTrue(page.body().contains("<p class=\"quiz-topic\">Sink strategies</p>"), "the chosen topic");
    assertEquals(404, new QuizClient(server).get(location).statusCode(), "another learner cannot open it");
  }

  @Test
  void a_full_quiz_never_asks_a_ladder_rung_and_its_interview_rephrasing_together() {
    for (long seed = 1; seed <= 5; seed++) {
      List<String> asked = ids(new QuizClient(server).start("{\"lesson\":\"exactly-once\",\"length\":50,\"seed\":" + seed + "}"));
      for (int n = 1; n <= 7; n++) {
        assertFalse(asked.contains("exactly-once/L" + n) && asked.contains("exactly-once/iq" + n), "L" + n + " and iq" + n + " in " + asked);
      }
      List<String> items = new ArrayList<>();
      for (String id : asked) {
        written.questions().stream().filter(q -> q.id().equals(id) && q.kind() != Question.Kind.ORDER).findFirst()
            .ifPresent(q -> items.add(q.item()));
      }
      assertEquals(items.size(), new HashSet<>(items).size(), "one question per lesson item (each ordering path is its own): " + items);
    }
  }

  @Test
  void the_same_seed_gives_the_same_questions_and_another_seed_another_order() {
    // The questions built from sandbox runs join the bank once built: a seed picks from the whole bank only then.
    new QuizClient(server).bankWhenRunsAreReady("exactly-once");
    String body = "{\"lesson\":\"exactly-once\",\"length\":12,\"seed\":7}";
    JsonNode a = new QuizClient(server).start(body);
    JsonNode b = new QuizClient(server).start(body);
    JsonNode c = new QuizClient(server).start("{\"lesson\":\"exactly-once\",\"length\":12,\"seed\":8}");
    assertEquals(ids(a), ids(b));
    assertNotEquals(ids(a), ids(c));
    assertEquals(12, ids(a).size());
    assertEquals("practice", a.get("mode").asText());
    assertEquals(0, a.get("secondsPerQuestion").asInt());
    for (JsonNode q : a.get("questions")) {
      assertFalse(q.has("answer") || q.has("explanation"), "a session never carries answers: " + q);
    }
  }

  @Test
  void a_lesson_quiz_asks_only_its_lesson_and_the_quiz_across_lessons_asks_each_keeping_each_lessons_schedule() {
    QuizClient learner = new QuizClient(server);
    Map<String, Integer> answeredBefore = new TreeMap<>();
    for (String lesson : BundledLessons.ids()) {
      int bank = QuizClient.json(learner.get("/api/quiz/lessons/" + lesson)).get("questions").size();
      if (bank == 0) continue; // a lesson still being written may have no questions yet
      JsonNode own = learner.start("{\"lesson\":\"" + lesson + "\",\"length\":50}");
      for (JsonNode q : own.get("questions")) assertEquals(lesson, lessonOf(q), "the quiz of " + lesson + " asked " + q);
      answeredBefore.put(lesson, answeredCount(learner, lesson));
    }
    assertTrue(answeredBefore.containsKey("exactly-once"), answeredBefore.toString());

    String entry = learner.get("/quiz").body();
    for (String lesson : BundledLessons.ids()) {
      assertTrue(entry.contains("<li class=\"quiz-lesson\" data-lesson=\"" + lesson + "\"><p><a href=\"/lessons/" + lesson
          + "/quiz\">"), "the quiz across lessons links each lesson's quiz: " + entry);
    }
    JsonNode all = learner.start("{\"lesson\":\"*\",\"length\":" + answeredBefore.size() + ",\"seed\":5}");
    assertEquals("/quiz/" + all.get("id").asText(), all.get("page").asText());
    Map<String, JsonNode> firstOfLesson = new TreeMap<>();
    for (JsonNode q : all.get("questions")) firstOfLesson.putIfAbsent(lessonOf(q), q);
    assertEquals(answeredBefore.keySet(), firstOfLesson.keySet(), "one question of every lesson with questions");

    for (JsonNode q : firstOfLesson.values()) {
      HttpResponse<String> answered = learner.answer(all, q, anyAnswer(q));
      assertEquals(200, answered.statusCode(), answered.body());
    }
    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + all.get("id").asText() + "/results"));
    assertEquals(answeredBefore.size(), results.get("answered").asInt(), results.toString());
    for (String lesson : answeredBefore.keySet()) {
      assertEquals(answeredBefore.get(lesson) + 1, answeredCount(learner, lesson), "the answer counts in " + lesson + "'s schedule alone");
    }
    String page = learner.get("/quiz/" + all.get("id").asText()).body();
    for (JsonNode q : firstOfLesson.values()) {
      assertTrue(page.contains("data-question=\"" + q.get("id").asText() + "\" data-lesson=\"" + lessonOf(q) + "\""), page);
    }
    assertEquals(404, learner.get("/lessons/exactly-once/quiz/" + all.get("id").asText()).statusCode(),
        "a quiz across lessons is not one lesson's");
  }

  private static String lessonOf(JsonNode question) {
    return question.get("id").asText().split("/")[0];
  }

  /** Questions of the lesson the learner answered (due again or learned), as the lesson's quiz page counts them. */
  private static int answeredCount(QuizClient learner, String lesson) {
    Matcher m = Pattern.compile("<li><strong>(\\d+)</strong> due:.*?<li><strong>(\\d+)</strong> learned")
        .matcher(learner.get("/lessons/" + lesson + "/quiz").body());
    assertTrue(m.find());
    return Integer.parseInt(m.group(1)) + Integer.parseInt(m.group(2));
  }

  /** An answer the question takes, right or wrong. */
  private static String anyAnswer(JsonNode q) {
    return switch (q.get("kind").asText()) {
      case "self-graded" -> "\"rating\":3";
      case "order" -> {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < q.get("options").size(); i++) order.add(i);
        yield "\"order\":" + order;
      }
      default -> "\"choice\":0";
    };
  }

  @Test
  void a_practice_answer_is_graded_once_and_a_retry_gets_the_original_verdict() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":5,\"topic\":\"Sources of duplicates\",\"seed\":1}");
    JsonNode first = session.get("questions").get(0);
    int right = rightChoice(first);
    String id = UUID.randomUUID().toString();

    HttpResponse<String> answered = learner.answer(id, session, first, "\"choice\":" + right);
    assertEquals(200, answered.statusCode(), answered.body());
    JsonNode result = QuizClient.json(answered).get("result");
    assertTrue(result.get("correct").asBoolean());
    assertEquals(3, result.get("rating").asInt());
    assertEquals(first.get("options").get(right).asText(), result.get("expected").asText());
    assertEquals("/lessons/exactly-once#gist/" + first.get("item").asText(), result.get("link").asText());

    HttpResponse<String> retry = learner.answer(id, session, first, "\"choice\":" + right);
    assertEquals(200, retry.statusCode());
    assertEquals(answered.body(), retry.body(), "a retry returns the original response");

    HttpResponse<String> changed = learner.answer(id, session, first, "\"choice\":" + (right + 1) % 4);
    assertEquals(409, changed.statusCode());
    assertTrue(changed.body().startsWith("{\"error\":\"event id '" + id + "' was already used for a different event"), changed.body());

    HttpResponse<String> again = learner.answer(session, first, "\"choice\":" + right);
    assertEquals(409, again.statusCode());
    assertEquals("{\"error\":\"question '" + first.get("id").asText() + "' was already answered in quiz session '"
        + session.get("id").asText() + "'; nothing was stored\"}", again.body());

    JsonNode second = session.get("questions").get(1);
    JsonNode wrong = QuizClient.json(learner.answer(session, second, "\"choice\":" + (rightChoice(second) + 1) % 4)).get("result");
    assertFalse(wrong.get("correct").asBoolean());
    assertEquals(1, wrong.get("rating").asInt());

    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + session.get("id").asText() + "/results"));
    assertEquals(1, results.get("correct").asInt());
    assertEquals(2, results.get("answered").asInt());
    assertEquals(5, results.get("total").asInt());
    assertEquals("[{\"topic\":\"Sources of duplicates\",\"correct\":1,\"total\":5}]".length(), results.get("topics").toString().length());
    JsonNode miss = results.get("misses").get(0);
    assertEquals(second.get("id").asText(), miss.get("question").asText());
    assertEquals(second.get("options").get((rightChoice(second) + 1) % 4).asText(), miss.get("given").asText());
    assertEquals(second.get("options").get(rightChoice(second)).asText(), miss.get("expected").asText());
    assertEquals("/lessons/exactly-once#gist/" + second.get("item").asText(), miss.get("link").asText());
    assertEquals(4, results.get("misses").size(), "the wrong answer and the three unanswered questions");

    String page = learner.get("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results").body();
    assertTrue(page.contains("<strong>1 of 5</strong> (3 not answered)"), page);
    assertTrue(page.contains("<a href=\"/lessons/exactly-once#gist/" + second.get("item").asText() + "\">Read about it in the lesson</a>"));
  }

  @Test
  void the_same_answer_sent_many_times_at_once_is_stored_once_with_one_verdict() throws Exception {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":1,\"topic\":\"Sources of duplicates\",\"seed\":1}");
    JsonNode q = session.get("questions").get(0);
    String id = UUID.randomUUID().toString();
    var pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<HttpResponse<String>>> sends = new ArrayList<>();
      for (int i = 0; i < 24; i++) sends.add(pool.submit(() -> learner.answer(id, session, q, "\"choice\":1")));
      Set<String> bodies = new HashSet<>();
      for (var send : sends) {
        HttpResponse<String> res = send.get();
        assertEquals(200, res.statusCode(), res.body());
        bodies.add(res.body());
      }
      assertEquals(1, bodies.size(), "every retry got the original response");
    } finally {
      pool.shutdown();
    }
    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + session.get("id").asText() + "/results"));
    assertEquals(1, results.get("answered").asInt());
    String export = learner.get("/api/me/export").body();
    assertEquals(1, export.split("\"quiz.answer\"", -1).length - 1, "one stored event");
  }

  @Test
  void self_graded_answers_take_the_rating_and_missed_ones_come_back_first() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":3,\"topic\":\"Delivery guarantees\",\"seed\":16}");
    JsonNode questions = session.get("questions");
    assertEquals("self-graded", questions.get(0).get("kind").asText());
    JsonNode easy = QuizClient.json(learner.answer(session, questions.get(0), "\"rating\":4")).get("result");
    assertTrue(easy.get("selfRated").asBoolean());
    assertFalse(easy.has("correct"), "nobody checked it: " + easy);
    assertEquals(4, easy.get("rating").asInt());
    JsonNode again = QuizClient.json(learner.answer(session, questions.get(1), "\"rating\":1")).get("result");
    assertFalse(again.has("correct"), again.toString());

    // Easy schedules the first in 8 days; Again keeps the second in learning, due in a minute.
    JsonNode next = learner.start("{\"lesson\":\"exactly-once\",\"length\":3,\"topic\":\"Delivery guarantees\",\"seed\":99}");
    assertEquals(questions.get(1).get("id").asText(), next.get("questions").get(0).get("id").asText(), "the due question comes first");
    assertFalse(ids(next).subList(0, 2).contains(questions.get(0).get("id").asText()), "new questions come before one due in 8 days");
    assertEquals(1, QuizClient.json(learner.get("/api/quiz/lessons/exactly-once")).get("dueToday").asInt());
    assertTrue(learner.get("/lessons/exactly-once/quiz").body().contains("<strong>1</strong> question due today"));
  }

  @Test
  void interview_answers_are_recorded_without_feedback_until_the_end() {
    QuizClient learner = new QuizClient(server);
    // Seed 1 draws two choice questions; the topic also holds a self-graded one, which has no right option to send.
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"mode\":\"interview\",\"length\":2,"
        + "\"topic\":\"Sources of duplicates\",\"seconds\":30,\"seed\":1}");
    assertEquals(30, session.get("secondsPerQuestion").asInt());
    JsonNode q = session.get("questions").get(0);
    assertEquals("choice", q.get("kind").asText(), "the seed's first question takes a choice: " + q.get("id"));
    JsonNode result = QuizClient.json(learner.answer(session, q, "\"choice\":" + rightChoice(q))).get("result");
    assertEquals("{\"correct\":true,\"rating\":3,\"mode\":\"interview\"}", result.toString(), "right, and no feedback yet");
    JsonNode skipped = QuizClient.json(learner.answer(session, session.get("questions").get(1), "\"skip\":true")).get("result");
    assertFalse(skipped.get("correct").asBoolean());
    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + session.get("id").asText() + "/results"));
    assertEquals("no answer (time ran out)", results.get("misses").get(0).get("given").asText());
  }

  @Test
  void an_ordering_question_is_right_only_in_the_flow_order() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":50,\"topic\":\"Two-phase commit\"}");
    int ordering = 0;
    for (JsonNode q : session.get("questions")) {
      if (!q.get("kind").asText().equals("order")) continue; // the topic's other questions are tried elsewhere
      ordering++;
      String end = q.get("id").asText().endsWith("f-commit") ? "Commit the txn" : "Abort txn and replay";
      List<String> labels = List.of("Rewindable source offsets", "State matches that cut", "Sink writes open txn",
          "Barrier, sink pre-commits", "Tasks ack the checkpoint", "Checkpoint complete?", end);
      List<Integer> order = new ArrayList<>();
      for (String label : labels) order.add(indexOf(q.get("options"), label));
      JsonNode result = QuizClient.json(learner.answer(session, q, "\"order\":" + order)).get("result");
      assertTrue(result.get("correct").asBoolean(), q.toString());
      assertEquals("/lessons/exactly-once#maps/flow/two-phase-sink", result.get("link").asText());
    }
    assertEquals(2, ordering, "one ordering question for each end of the flow");
  }

  @Test
  void the_bank_lists_every_kind_without_answers() {
    JsonNode bank = QuizClient.json(new QuizClient(server).get("/api/quiz/lessons/exactly-once"));
    List<String> kinds = new ArrayList<>();
    bank.get("questions").forEach(q -> { if (!kinds.contains(q.get("kind").asText())) kinds.add(q.get("kind").asText()); });
    assertTrue(kinds.containsAll(List.of("choice", "true-false", "self-graded", "order")), kinds.toString());
    assertFalse(bank.toString().contains("\"explanation\""));
  }

  static Stream<Arguments> badStarts() {
    return Stream.of(
        arguments("unknown lesson", "{\"lesson\":\"nope\"}", 404, BundledLessons.unknown("nope")),
        arguments("no lesson", "{}", 400, "'lesson' is required"),
        arguments("unknown mode", "{\"lesson\":\"exactly-once\",\"mode\":\"exam\"}", 400, "'mode' must be practice or interview, got 'exam'"),
        arguments("length zero", "{\"lesson\":\"exactly-once\",\"length\":0}", 400, "'length' must be between 1 and 50, got 0"),
        arguments("length too long", "{\"lesson\":\"exactly-once\",\"length\":51}", 400, "'length' must be between 1 and 50, got 51"),
        arguments("length as text", "{\"lesson\":\"exactly-once\",\"length\":\"ten\"}", 400, "'length' must be a whole number, got \"ten\""),
        arguments("timer too short", "{\"lesson\":\"exactly-once\",\"seconds\":1}", 400, "'seconds' must be between 5 and 600, got 1"),
        arguments("unknown field", "{\"lesson\":\"exactly-once\",\"level\":3}", 400,
            "unknown field 'level'; the fields are 'lesson', 'mode', 'length', 'topic', 'seed', 'seconds', 'review' and 'session'"),
        arguments("not an object", "[1]", 400, "the request body must be a JSON object"),
        arguments("oversized", "{\"lesson\":\"exactly-once\",\"topic\":\"" + "x".repeat(3000) + "\"}", 413,
            "the request body is 3036 bytes; the limit is 2048 bytes"),
        // A review (of what is due, or of a quiz's misses) starts at the same endpoint.
        arguments("unknown kind", "{\"lesson\":\"exactly-once\",\"review\":\"soon\"}", 400,
            "'review' must be due or misses, got 'soon'"),
        arguments("a session without review", "{\"lesson\":\"exactly-once\",\"session\":\"x\"}", 400,
            "'review' must be due or misses, got nothing"),
        arguments("misses without a session", "{\"lesson\":\"exactly-once\",\"review\":\"misses\"}", 400,
            "'session' is required with 'review': 'misses'"),
        arguments("due with a session", "{\"lesson\":\"exactly-once\",\"review\":\"due\",\"session\":\"x\"}", 400,
            "'session' goes only with 'review': 'misses'"),
        arguments("a length", "{\"lesson\":\"exactly-once\",\"review\":\"due\",\"length\":5}", 400,
            "'length' does not go with 'review': a review asks exactly the questions due or missed"),
        arguments("an unknown session", "{\"lesson\":\"exactly-once\",\"review\":\"misses\",\"session\":\"nope\"}", 404,
            "no quiz session 'nope'"),
        arguments("no lesson", "{\"review\":\"due\"}", 400, "'lesson' is required"),
        arguments("nothing due", "{\"lesson\":\"exactly-once\",\"review\":\"due\"}", 409,
            "nothing in lesson 'exactly-once' is due for review now"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badStarts")
  void a_bad_start_is_refused_and_creates_no_learner(String desc, String body, int status, String message) {
    QuizClient learner = new QuizClient(server);
    HttpResponse<String> res = learner.postJson("/api/quiz/sessions", body);
    assertEquals(status, res.statusCode(), res.body());
    assertEquals("{\"error\":" + JSON.valueToTree(message) + "}", res.body());
    assertTrue(res.headers().allValues("Set-Cookie").isEmpty(), "nothing stored, not even a learner");
  }

  @Test
  void an_unknown_topic_names_the_topics_there_are() {
    HttpResponse<String> res = new QuizClient(server).postJson("/api/quiz/sessions", "{\"lesson\":\"exactly-once\",\"topic\":\"Cooking\"}");
    assertEquals(400, res.statusCode());
    assertTrue(res.body().startsWith("{\"error\":\"lesson 'exactly-once' has no topic 'Cooking'; topics: Delivery guarantees, Sink strategies,"), res.body());
  }

  @Test
  void bad_answers_are_refused_and_nothing_is_stored() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":3,\"topic\":\"Sink strategies\",\"seed\":5}");
    String sid = session.get("id").asText();
    JsonNode q = session.get("questions").get(0);
    String qid = q.get("id").asText();
    String item = q.get("item").asText();
    String notInSession = "exactly-once/ch-dup-udp";
    String ladder = "exactly-once/L1";
    String[][] cases = {
        {"exactly-once/../x", item, "\"choice\":0", "400", "malformed question id 'exactly-once/../x'; expected <lesson>/<item> or <lesson>/<item>/<variant>"},
        {"exactly-once/L9", "L9", "\"choice\":0", "404", "lesson 'exactly-once' has no question 'exactly-once/L9'"},
        {notInSession, "dup-not-replayable", "\"choice\":0", "400", "question '" + notInSession + "' is not part of quiz session '" + sid + "'"},
        {qid, item, "\"choice\":9", "400", "'choice' must be an option index from 0 to 3, got 9"},
        {qid, item, "\"choice\":-1", "400", "'choice' must be an option index from 0 to 3, got -1"},
        {qid, item, "\"rating\":3", "400", "question '" + qid + "' is choice: answer it with 'choice'"},
        {qid, item, "\"choice\":1,\"rating\":3", "400", "an answer to question '" + qid + "' needs exactly one of 'choice' or 'skip'"},
        {qid, item, "\"choice\":\"b\"", "400", "'data.choice' must be a whole number, got \\\"b\\\""},
        {qid, item, "\"choice\":0,\"bonus\":1", "400", "unknown field 'data.bonus'; the fields of 'data' are 'session', 'question', 'choice', 'order', 'rating' and 'skip'"},
        {qid, "L1", "\"choice\":0", "400", "'item' must be '" + item + "', the item question '" + qid + "' is about, got 'L1'"},
        {ladder, "L1", "\"rating\":7", "400", "'rating' must be 1, 2, 3 or 4 (Again, Hard, Good, Easy), got 7"},
        {ladder, "L1", "\"rating\":0", "400", "'rating' must be 1, 2, 3 or 4 (Again, Hard, Good, Easy), got 0"},
        {"exactly-once/two-phase-sink/f-commit", "two-phase-sink", "\"order\":[0,0,1,2,3,4,5]", "400",
            "'order' must list each option index from 0 to 6 exactly once, got [0, 0, 1, 2, 3, 4, 5]"},
    };
    for (String[] c : cases) {
      String body = "{\"id\":\"" + UUID.randomUUID() + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\",\"item\":\"" + c[1]
          + "\",\"data\":{\"session\":\"" + sid + "\",\"question\":\"" + c[0] + "\"," + c[2] + "}}";
      HttpResponse<String> res = learner.postJson("/api/events", body);
      assertEquals(Integer.parseInt(c[3]), res.statusCode(), c[0] + " " + c[2] + ": " + res.body());
      assertEquals("{\"error\":\"" + c[4] + "\"}", res.body(), c[0] + " " + c[2]);
    }
    String unknownSession = UUID.randomUUID().toString();
    HttpResponse<String> noSession = learner.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID()
        + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\",\"data\":{\"session\":\""
        + unknownSession + "\",\"question\":\"" + qid + "\",\"choice\":0}}");
    assertEquals("{\"error\":\"no quiz session '" + unknownSession + "'\"}", noSession.body());
    assertEquals(404, noSession.statusCode());
    HttpResponse<String> badSession = learner.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID()
        + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\",\"data\":{\"session\":\"s1\",\"question\":\""
        + qid + "\",\"choice\":0}}");
    assertEquals("{\"error\":\"'data.session' must be a quiz session id, got 's1'\"}", badSession.body());
    HttpResponse<String> oversized = learner.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID()
        + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\",\"item\":\"" + item + "\",\"data\":{\"session\":\"" + sid
        + "\",\"question\":\"" + qid + "\",\"choice\":0,\"pad\":\"" + "x".repeat(5000) + "\"}}");
    assertEquals(413, oversized.statusCode());
    HttpResponse<String> othersSession = new QuizClient(server).answer(session, q, "\"choice\":0");
    assertEquals(404, othersSession.statusCode(), "another learner cannot answer in this session");

    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + sid + "/results"));
    assertEquals(0, results.get("answered").asInt(), "nothing was stored");
    assertFalse(learner.get("/api/me/export").body().contains("quiz.answer"));
  }

  @Test
  void unknown_and_foreign_sessions_are_not_found() {
    QuizClient owner = new QuizClient(server);
    String sid = owner.start("{\"lesson\":\"exactly-once\",\"length\":1}").get("id").asText();
    QuizClient other = new QuizClient(server);
    other.start("{\"lesson\":\"exactly-once\",\"length\":1}");
    assertEquals("{\"error\":\"no quiz session '" + sid + "'\"}", other.get("/api/quiz/sessions/" + sid).body());
    assertEquals(404, other.get("/api/quiz/sessions/" + sid + "/results").statusCode());
    assertEquals(404, owner.get("/api/quiz/sessions/nope").statusCode());
    assertEquals(404, owner.get("/lessons/exactly-once/quiz/nope").statusCode());
    assertEquals(200, owner.get("/api/quiz/sessions/" + sid).statusCode());
    assertTrue(owner.get("/api/me/export").body().contains("\"quizSessions\":[{\"id\":\"" + sid + "\""));
  }

  @Test
  void a_session_start_from_another_site_is_refused() {
    HttpResponse<String> res = server.sendAsIs(HttpRequest.newBuilder(URI.create(server.url("/api/quiz/sessions")))
        .header("Content-Type", "application/json").header("Origin", "http://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString("{\"lesson\":\"exactly-once\"}")).build());
    assertEquals(403, res.statusCode());
    HttpResponse<String> form = server.sendAsIs(HttpRequest.newBuilder(URI.create(server.url("/lessons/exactly-once/quiz")))
        .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", "http://evil.example")
        .POST(HttpRequest.BodyPublishers.ofString("mode=practice")).build());
    assertEquals(403, form.statusCode());
    assertTrue(form.body().contains("Cross-site request refused: Origin &#x27;http://evil.example&#x27; is not this site"), form.body());
  }

  // ---- helpers ---------------------------------------------------------------------------------------------

  private static List<String> ids(JsonNode session) {
    List<String> ids = new ArrayList<>();
    session.get("questions").forEach(q -> ids.add(q.get("id").asText()));
    return ids;
  }

  private static int indexOf(JsonNode options, String text) {
    for (int i = 0; i < options.size(); i++) if (options.get(i).asText().equals(text)) return i;
    throw new AssertionError(text + " is not among " + options);
  }

  /** The right option, from the lesson's question bank. */
  private int rightChoice(JsonNode question) {
    String id = question.get("id").asText();
    return written.questions().stream().filter(q -> q.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no written question " + id)).answer().get(0);
  }
}
