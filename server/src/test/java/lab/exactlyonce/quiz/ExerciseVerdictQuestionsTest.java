package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.ReferenceSolutions;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fix-the-sink exercises in the quiz, checked by the sandbox engine in this JVM: each exercise's verdict question
 * has as its answer a verdict the real checker prints for the starter, and an {@code exercise.check} event reviews it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExerciseVerdictQuestionsTest {
  private static final List<String> EXERCISES = List.of("dedupe-horizon", "exactly-once-append", "idempotent-payment");
  private static final Map<String, String> TOPICS = Map.of("a", "Two-phase commit", "b", "Dedupe windows", "c",
      "Side effects");
  private static final Lesson LESSON = LessonCatalog.load(Path.of("lessons"), SnippetCatalog.load(Path.of("snippets"))::idsIn).require("exactly-once");
  private final Config config = TestConfig.defaults();
  private TestServer server;

  @BeforeAll
  void start() {
    server = TestServer.start(config);
  }

  @AfterAll
  void stop() {
    server.close();
  }

  @Test
  void each_exercise_has_a_verdict_question_answered_by_what_its_checker_reports_for_the_starter() throws Exception {
    JsonNode bank = new QuizClient(server).bankWhenRunsAreReady("exactly-once");
    Map<String, JsonNode> verdictQuestions = new LinkedHashMap<>();
    bank.get("questions").forEach(q -> { if (q.get("id").asText().endsWith("/verdict")) verdictQuestions.put(q.get("item").asText(), q); });
    assertEquals(EXERCISES, List.copyOf(verdictQuestions.keySet()));

    JsonNode append = verdictQuestions.get("exactly-once-append");
    assertEquals("exactly-once/exactly-once-append/verdict", append.get("id").asText());
    assertEquals("predict", append.get("kind").asText());
    assertEquals("Two-phase commit", append.get("topic").asText(), "the topic its questions.yaml entry gives");
    assertEquals("“Make the append sink exactly-once”: the checker runs this starter code under many crash and retry scenarios. "
        + "Which of these does the checker report?", append.get("prompt").asText());
    append.get("options").forEach(o -> assertFalse(o.asText().matches(".*\\b[pe]\\d\\b.*"),
        "the append exercise's options speak of its orders, not another exercise's payments or events: " + o));
    assertEquals(starterSource("exactly-once-append"), append.get("detail").asText(), "the starter's code is shown");

    QuizClient learner = new QuizClient(server);
    Map<String, String> expected = new LinkedHashMap<>();
    for (String topic : List.of("Two-phase commit", "Side effects", "Dedupe windows")) {
      JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":50,\"topic\":\"" + topic + "\"}");
      List<JsonNode> verdicts = new ArrayList<>();
      session.get("questions").forEach(q -> { if (q.get("id").asText().endsWith("/verdict")) verdicts.add(q); });
      assertEquals(1, verdicts.size(), topic + ": one exercise's verdict question");
      JsonNode q = verdicts.get(0);
      List<String> options = new ArrayList<>();
      q.get("options").forEach(o -> options.add(o.asText()));
      assertEquals(options.size(), new HashSet<>(options).size(), "distinct options: " + options);
      assertTrue(options.contains(VerdictQuestions.ALL_PASS), options.toString());
      JsonNode result = QuizClient.json(learner.answer(session, q, "\"choice\":0")).get("result");
      String item = q.get("item").asText();
      expected.put(item, result.get("expected").asText());
      assertEquals("/lessons/exactly-once#sandbox/exercise/" + item, result.get("link").asText());
      assertTrue(result.get("explanation").asText().startsWith("The checker reports it in the scenario “"), result.toString());

      // The checker itself, through the exercise's own check endpoint, prints the expected verdict for the starter,
      // and none of the wrong options.
      List<String> printed = checkerVerdicts(item);
      assertTrue(printed.contains(result.get("expected").asText()), item + ": " + result.get("expected") + " not in " + printed);
      for (String option : options) {
        if (!option.equals(result.get("expected").asText())) assertFalse(printed.contains(option), item + " also printed " + option);
      }
    }
    assertEquals(Map.of(
        "dedupe-horizon", "duplicate of e1 accepted at t=61 (a retry 61 s after the first send)",
        "exactly-once-append", "duplicate write of o1 after replay from offset 0",
        "idempotent-payment", "payment p1 charged twice"), expected);
  }

  @Test
  void a_failed_exercise_check_makes_its_question_due_first_and_a_passed_one_schedules_it_later() throws Exception {
    QuizClient learner = new QuizClient(server);
    assertEquals(200, check(learner, "exactly-once-append", ReferenceSolutions.of("exactly-once-append")).statusCode());
    assertEquals(200, check(learner, "idempotent-payment", starterSource("idempotent-payment")).statusCode());
    // A compile error reaches no verdict: it says nothing about what the learner knows and schedules nothing.
    assertEquals(200, check(learner, "dedupe-horizon", "class Broken { void f() { int x = ; } }").statusCode());

    // Again is due a minute after the failed check; Good, after the passed one, in 2 days: not today.
    assertTrue(learner.get("/lessons/exactly-once/quiz").body()
        .contains("<p id=\"quiz-due\" class=\"quiz-due\"><strong>1</strong> question due today</p>"));
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":5}");
    List<String> ids = new ArrayList<>();
    session.get("questions").forEach(q -> ids.add(q.get("id").asText()));
    assertEquals("exactly-once/idempotent-payment/verdict", ids.get(0), "the failed exercise comes first");
    assertFalse(ids.contains("exactly-once/exactly-once-append/verdict"), "new questions come before the passed one: " + ids);
  }

  @Test
  void options_are_the_other_starters_verdicts_in_an_order_fixed_by_the_question_id() {
    Map<StarterChecks.Starter, List<StarterChecks.Failure>> found = new LinkedHashMap<>();
    found.put(starter("a"), List.of(new StarterChecks.Failure("crash after o1", List.of("record o1 lost", "record o2 lost"))));
    found.put(starter("b"), List.of(new StarterChecks.Failure("no crash", List.of("record o2 lost")),
        new StarterChecks.Failure("crash after o2", List.of("transaction left open"))));
    found.put(starter("c"), List.of(new StarterChecks.Failure("no crash", List.of("payment p1 charged twice"))));
    List<Question> questions = VerdictQuestions.build(LESSON, found, Map.of(), TOPICS);
    assertEquals(questions, VerdictQuestions.build(LESSON, new LinkedHashMap<>(found), Map.of(), TOPICS));
    Question a = questions.get(0);
    assertEquals("exactly-once/a/verdict", a.id());
    assertEquals("record o1 lost", a.expected());
    assertEquals(List.of("every scenario passes", "payment p1 charged twice", "record o1 lost"), a.options().stream().sorted().toList(),
        "b's first verdict, record o2 lost, is one a reported too: not a wrong option");
    assertEquals("The checker reports it in the scenario “crash after o1”, with: record o2 lost. The exercise: fix a",
        a.explanation());
    assertEquals("/lessons/exactly-once#sandbox/exercise/a", a.link());
  }

  @Test
  void without_a_second_exercise_that_fails_differently_there_is_no_question() {
    Map<StarterChecks.Starter, List<StarterChecks.Failure>> found = new LinkedHashMap<>();
    found.put(starter("a"), List.of(new StarterChecks.Failure("no crash", List.of("record o1 lost"))));
    assertEquals(List.of(), VerdictQuestions.build(LESSON, found, Map.of(), TOPICS), "one exercise alone");
    found.put(starter("b"), List.of(new StarterChecks.Failure("crash after o1", List.of("record o1 lost"))));
    found.put(starter("c"), List.of());
    assertEquals(List.of(), VerdictQuestions.build(LESSON, found, Map.of(), TOPICS), "the same verdict, and a starter that passes");
  }

  private static StarterChecks.Starter starter(String id) {
    return new StarterChecks.Starter(id, "Exercise " + id, "fix " + id, "class A {}", "checker");
  }

  /** The learner checks {@code source} against the exercise, as the page's Check button does. */
  private static HttpResponse<String> check(QuizClient learner, String exercise, String source) {
    ObjectNode body = JsonNodeFactory.instance.objectNode().put("source", source).put("attempt", UUID.randomUUID().toString());
    return learner.postJson("/api/exercises/" + exercise + "/check", body.toString());
  }

  /** Every verdict the exercise's checker prints for the starter, through {@code POST /api/exercises/{id}/check}. */
  private List<String> checkerVerdicts(String exercise) throws Exception {
    ObjectNode body = JsonNodeFactory.instance.objectNode().put("source", starterSource(exercise));
    JsonNode result = JSON.readTree(server.postJson("/api/exercises/" + exercise + "/check", body.toString()).body());
    assertEquals("ok", result.get("status").asText(), result.toString());
    List<String> verdicts = new ArrayList<>();
    result.get("scenarios").forEach(s -> s.get("verdicts").forEach(v -> verdicts.add(v.asText())));
    return verdicts;
  }

  private String starterSource(String exercise) throws Exception {
    return JSON.readTree(server.get("/api/exercises/" + exercise).body()).get("source").asText();
  }
}
