package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reviews over HTTP: what is due shows on the home and lesson pages and starts a review of exactly those; the results
 * page starts a review of exactly a session's misses; an interview's score counts only what the app graded, on the
 * page, in the API and in the export alike. The app is this class's own: a test moves its clock.
 */
class ReviewsHttpTest extends ServerTest {
  private static final String LESSON = "exactly-once";
  private static final Pattern QUESTION = Pattern.compile("<li id=\"q-\\d+\"[^>]* data-question=\"([^\"]+)\"");
  private final Config config = TestConfig.defaults();
  private final QuestionBankLintTest.Linted written = QuestionBankLintTest.load(Path.of("lessons"), Path.of("snippets"), LESSON);

  @Override
  protected TestServer startServer() {
    return TestServer.start(config);
  }

  private int rightChoice(JsonNode question) {
    String id = question.get("id").asText();
    return written.questions().stream().filter(q -> q.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no written question " + id)).answer().get(0);
  }

  private boolean isWritten(JsonNode question) {
    return written.questions().stream().anyMatch(q -> q.id().equals(question.get("id").asText()));
  }

  /** A practice quiz of three sink questions: the first answered right, the second wrong, the third not at all. */
  private JsonNode rightWrongOpen(QuizClient learner) {
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":3,\"topic\":\"Sink strategies\",\"seed\":3}");
    JsonNode questions = session.get("questions");
    learner.answer(session, questions.get(0), "\"choice\":" + rightChoice(questions.get(0)));
    learner.answer(session, questions.get(1), "\"choice\":" + (rightChoice(questions.get(1)) + 1) % 4);
    return session;
  }

  private static String id(JsonNode session, int question) {
    return session.get("questions").get(question).get("id").asText();
  }

  private static List<String> ids(JsonNode session) {
    List<String> ids = new ArrayList<>();
    session.get("questions").forEach(q -> ids.add(q.get("id").asText()));
    return ids;
  }

  /** The questions of the quiz page a form's redirect leads to, in order. */
  private static List<String> questionsOfPage(QuizClient learner, HttpResponse<String> redirect) {
    assertEquals(303, redirect.statusCode(), redirect.body());
    String location = redirect.headers().firstValue("Location").orElseThrow();
    assertTrue(location.matches("/lessons/exactly-once/quiz/[0-9a-f-]{36}"), location);
    String page = learner.get(location).body();
    assertTrue(page.contains("Practice quiz"), "a review is a practice quiz: feedback after each answer");
    List<String> ids = new ArrayList<>();
    Matcher m = QUESTION.matcher(page);
    while (m.find()) ids.add(m.group(1));
    return ids;
  }

  @Test
  void misses_show_as_due_on_the_home_and_lesson_pages_and_review_them_now_asks_exactly_those() {
    QuizClient learner = new QuizClient(server);
    assertFalse(learner.get("/").body().contains("reviews-due"), "a visitor has nothing due");
    JsonNode session = rightWrongOpen(learner);
    String miss = id(session, 1);

    String form = "<form method=\"post\" action=\"/lessons/exactly-once/quiz\" id=\"reviews-due-exactly-once\" "
        + "class=\"reviews-due\" data-due=\"1\"><input type=\"hidden\" name=\"review\" value=\"due\">"
        + "<p id=\"reviews-due-exactly-once-count\" class=\"reviews-due-count\"><strong>1</strong> question due for review</p>"
        + "<button type=\"submit\" aria-describedby=\"reviews-due-exactly-once-count\">Review them now</button></form>";
    HttpResponse<String> home = learner.get("/");
    assertTrue(home.body().contains(form), home.body());
    assertEquals("no-store", home.headers().firstValue("Cache-Control").orElse(""), "the count is this learner's");
    HttpResponse<String> lesson = learner.get("/lessons/exactly-once");
    assertTrue(lesson.body().contains("</h1>" + form), "under the lesson's title");
    assertEquals("no-store", lesson.headers().firstValue("Cache-Control").orElse(""));
    assertFalse(new QuizClient(server).get("/lessons/exactly-once").body().contains("reviews-due"),
        "another visitor's lesson page shows nothing of it");

    assertEquals(List.of(miss), questionsOfPage(learner, learner.postForm("/lessons/exactly-once/quiz", "review=due")));
    assertEquals(List.of(miss), ids(learner.start("{\"lesson\":\"exactly-once\",\"review\":\"due\"}")), "the API agrees");
  }

  @Test
  void review_my_misses_asks_exactly_the_wrong_and_the_unanswered_questions_of_that_session() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = rightWrongOpen(learner);
    String results = learner.get("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results").body();
    assertTrue(results.contains("<form method=\"post\" action=\"/lessons/exactly-once/quiz/" + session.get("id").asText()
        + "/misses\" class=\"quiz-review-form\"><button type=\"submit\" class=\"quiz-review-misses\">Review my 2 misses now"
        + "</button></form><p><a href=\"/lessons/exactly-once/quiz\">Take another quiz</a>"), results);

    List<String> misses = List.of(id(session, 1), id(session, 2));
    assertEquals(misses, questionsOfPage(learner,
        learner.postForm("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/misses", "")));
    assertEquals(misses, ids(learner.start("{\"lesson\":\"exactly-once\",\"review\":\"misses\",\"session\":\""
        + session.get("id").asText() + "\"}")), "the API agrees");
    assertEquals(404, new QuizClient(server).postForm("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/misses", "")
        .statusCode(), "another learner cannot review them");
  }

  @Test
  void with_nothing_due_the_pages_say_when_the_next_review_is_until_the_clock_brings_it_due() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":1,\"topic\":\"Sink strategies\",\"seed\":5}");
    JsonNode question = session.get("questions").get(0);
    learner.answer(session, question, "\"choice\":" + rightChoice(question)); // Good: back in 2 days

    String next = "<p id=\"reviews-due-exactly-once\" class=\"reviews-due\" data-due=\"0\">Nothing due for review. "
        + "Your next review is in 2 days.</p>";
    assertTrue(learner.get("/").body().contains(next));
    assertTrue(learner.get("/lessons/exactly-once").body().contains("</h1>" + next));
    String results = learner.get("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results").body();
    assertFalse(results.contains("Review my"), "no misses, nothing to offer");
    HttpResponse<String> none = learner.postForm("/lessons/exactly-once/quiz", "review=due");
    assertEquals("/lessons/exactly-once/quiz", none.headers().firstValue("Location").orElseThrow(),
        "a stale button lands on the quiz's entry page, which says what is due");

    TestClock.of(config).advance(Duration.ofDays(1));
    assertTrue(learner.get("/lessons/exactly-once").body().contains("Your next review is tomorrow."));
    TestClock.of(config).advance(Duration.ofDays(1));
    assertTrue(learner.get("/lessons/exactly-once").body()
        .contains("<strong>1</strong> question due for review</p>"), "due on its day");
    assertEquals(List.of(question.get("id").asText()),
        questionsOfPage(learner, learner.postForm("/lessons/exactly-once/quiz", "review=due")));
  }

  @Test
  void an_interview_counts_only_what_it_graded_alike_on_the_page_in_the_api_and_in_the_export() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"mode\":\"interview\",\"length\":12,\"seed\":11}");
    int graded = 0;
    int right = 0;
    List<String> rated = new ArrayList<>();
    for (JsonNode q : session.get("questions")) {
      if (q.get("kind").asText().equals("self-graded")) {
        // The candidate reveals the model answer and rates it Good: the reviewer's "2 of 3".
        JsonNode result = QuizClient.json(learner.answer(session, q, "\"rating\":3")).get("result");
        assertEquals("{\"selfRated\":true,\"rating\":3,\"mode\":\"interview\"}", result.toString());
        rated.add(q.get("id").asText());
      } else {
        graded++;
        if (isWritten(q)) {
          learner.answer(session, q, "\"choice\":" + rightChoice(q));
          right++;
        } else {
          learner.answer(session, q, "\"skip\":true");
        }
      }
    }
    assertTrue(!rated.isEmpty() && right > 0, "the quiz mixes self-rated and graded questions: " + session);

    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + session.get("id").asText() + "/results"));
    assertEquals(right, results.get("correct").asInt());
    assertEquals(graded, results.get("graded").asInt());
    assertEquals(12, results.get("total").asInt());
    List<String> listed = new ArrayList<>();
    for (JsonNode r : results.get("selfRated")) {
      listed.add(r.get("question").asText());
      assertEquals("Good", r.get("rating").asText());
    }
    assertEquals(rated, listed);
    for (JsonNode miss : results.get("misses")) assertFalse(rated.contains(miss.get("question").asText()), "rated Good is no miss");

    String page = learner.get("/lessons/exactly-once/quiz/" + session.get("id").asText() + "/results").body();
    assertTrue(page.contains("Score: <strong>" + right + " of " + graded + "</strong>"), page);
    assertTrue(page.contains(rated.size() + " answers you rated yourself are listed apart and not in the score")
        || rated.size() == 1 && page.contains("1 answer you rated yourself is listed apart"), page);
    assertEquals(rated.size(), page.split("<strong>Your rating: </strong>Good", -1).length - 1);

    JsonNode export = QuizClient.json(learner.get("/api/me/export"));
    int selfRatedEvents = 0;
    for (JsonNode e : export.get("events")) {
      if (!rated.contains(e.at("/data/question").asText())) continue;
      selfRatedEvents++;
      assertFalse(e.get("result").has("correct"), "the export never calls a self-rating right: " + e);
      assertTrue(e.at("/result/selfRated").asBoolean());
    }
    assertEquals(rated.size(), selfRatedEvents);
  }

  @Test
  void each_ladder_rung_has_the_scheduler_s_intervals_for_this_learner() {
    QuizClient learner = new QuizClient(server);
    JsonNode fresh = QuizClient.json(learner.get("/api/quiz/lessons/exactly-once/intervals"));
    assertEquals("[\"Again\",\"Hard\",\"Good\",\"Easy\"]", fresh.get("ratings").toString());
    assertEquals("[\"1 min\",\"2 min\",\"2 days\",\"8 days\"]", fresh.at("/rungs/L1").toString());

    HttpResponse<String> rated = learner.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID()
        + "\",\"type\":\"self.rating\",\"lesson\":\"exactly-once\",\"item\":\"L1\",\"data\":{\"rating\":1}}");
    assertEquals(200, rated.statusCode(), rated.body());
    JsonNode after = QuizClient.json(learner.get("/api/quiz/lessons/exactly-once/intervals"));
    assertEquals("1 min", after.at("/rungs/L1/0").asText(), "Again again: the learning step");
    assertEquals(fresh.at("/rungs/L2"), after.at("/rungs/L2"), "the other rungs are untouched");
    assertTrue(learner.get("/").body().contains("<strong>1</strong> question due for review"),
        "a ladder rating of Again makes its question due, too");
    assertEquals(404, learner.get("/api/quiz/lessons/nope/intervals").statusCode());
  }

  @Test
  void a_session_without_misses_has_none_to_review_and_a_form_with_another_review_is_refused() {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":1,\"topic\":\"Sink strategies\",\"seed\":9}");
    learner.answer(session, session.get("questions").get(0), "\"choice\":" + rightChoice(session.get("questions").get(0)));
    HttpResponse<String> res = learner.postJson("/api/quiz/sessions", "{\"lesson\":\"exactly-once\",\"review\":\"misses\","
        + "\"session\":\"" + session.get("id").asText() + "\"}");
    assertEquals(409, res.statusCode());
    assertEquals("{\"error\":\"quiz session '" + session.get("id").asText() + "' has no misses to review\"}", res.body());
    HttpResponse<String> form = learner.postForm("/lessons/exactly-once/quiz", "review=soon");
    assertEquals(400, form.statusCode());
    assertTrue(form.body().contains("&#x27;review&#x27; must be due or misses, got &#x27;soon&#x27;")
        || form.body().contains("'review' must be due or misses, got 'soon'"), form.body());
  }
}
