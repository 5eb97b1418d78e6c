package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ladder answers an instructor holds are held for the class wherever the lesson and the quiz show them. */
class AnswerHoldsHttpTest extends ClassroomServerTest {
  @Test
  void held_ladder_answers_are_not_sent_to_the_class_until_released() {
    JsonNode room = newClass("Pacing");
    String id = room.get("id").asText();
    Client member = Client.student(server, room.get("code").asText(), "Pat");
    Client outsider = new Client(server);
    String answerText = "A source that can be replayed from stored positions";

    HttpResponse<String> held = teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L1\",\"L2\"]}");
    assertEquals("{\"held\":[\"L1\",\"L2\"],\"released\":[]}", held.body());
    String page = member.get("/lessons/exactly-once").body();
    assertFalse(page.contains(answerText), "the held answer is not sent");
    assertTrue(page.contains("<details class=\"answer\" data-held=\"L1\"><summary>Answer</summary><p class=\"held-note\">Your instructor will release this answer.</p></details>"));
    assertTrue(page.contains("data-release-stream=\"/api/classes/" + id + "/stream\""), "the page watches the class for releases");
    assertTrue(outsider.get("/lessons/exactly-once").body().contains(answerText), "others still see it");
    JsonNode lesson = json(member.get("/api/lessons/exactly-once"));
    assertFalse(lesson.toString().contains(answerText));
    assertTrue(json(outsider.get("/api/lessons/exactly-once")).toString().contains(answerText));

    // The quiz draws self-graded questions from the ladder: their model answers are held as well. A seed where the
    // quiz asks L1 rather than its interview twin, which is the same idea in the same topic.
    String topic = null;
    for (JsonNode q : json(member.get("/api/quiz/lessons/exactly-once")).get("questions")) {
      if (q.get("id").asText().equals("exactly-once/L1")) topic = q.get("topic").asText();
    }
    HttpResponse<String> started = member.post("/api/quiz/sessions",
        "{\"lesson\":\"exactly-once\",\"length\":50,\"topic\":" + Client.quote(topic) + ",\"seed\":16}");
    assertEquals(201, started.statusCode(), started.body());
    String session = json(started).get("id").asText();
    String quizPage = member.get("/lessons/exactly-once/quiz/" + session).body();
    assertTrue(quizPage.contains("data-item=\"L1\""), "the quiz asks L1");
    assertTrue(quizPage.contains("data-held=\"L1\""));
    assertFalse(quizPage.contains(answerText), "the quiz page does not carry the held model answer");
    HttpResponse<String> graded = member.post("/api/events", "{\"id\":\"" + newId() + "\",\"type\":\"quiz.answer\",\"lesson\":\"exactly-once\","
        + "\"item\":\"L1\",\"data\":{\"session\":\"" + session + "\",\"question\":\"exactly-once/L1\",\"rating\":1}}");
    assertEquals(200, graded.statusCode(), graded.body());
    assertEquals(HeldAnswers.NOTE, json(graded).get("result").get("explanation").asText());
    assertFalse(graded.body().contains(answerText));
    String results = member.get("/lessons/exactly-once/quiz/" + session + "/results").body();
    assertTrue(results.contains("data-question=\"exactly-once/L1\""), "L1 is a miss (rated Again)");
    assertFalse(results.contains(answerText), "the results page does not carry the held model answer");
    String resultsJson = member.get("/api/quiz/sessions/" + session + "/results").body();
    assertTrue(resultsJson.contains("\"question\":\"exactly-once/L1\""), resultsJson);
    assertFalse(resultsJson.contains(answerText));

    assertEquals("{\"held\":[\"L2\"],\"released\":[\"L1\"]}", teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L2\"]}").body());
    assertTrue(member.get("/lessons/exactly-once").body().contains(answerText));
    HttpResponse<String> bad = teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L99\"]}");
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().startsWith("{\"error\":\"lesson 'exactly-once' has no ladder question 'L99'; its ladder: L1, L2"), bad.body());
    for (String body : new String[] {"{}", "{\"held\":null}"}) {
      HttpResponse<String> missing = teacher.put("/api/teach/classes/" + id + "/holds", body);
      assertEquals("{\"error\":\"'held' is required\"}", missing.body(), body);
      assertEquals(400, missing.statusCode());
    }
    assertEquals("{\"error\":\"'held' must be a list of at most 100 ladder question ids, got [1]\"}",
        teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[1]}").body());
    // the refused requests changed nothing: L2 is still held, so holding it again releases nothing
    assertEquals("{\"held\":[\"L2\"],\"released\":[]}", teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L2\"]}").body());
  }

  @Test
  void a_held_ladder_answer_is_held_in_its_interview_twin_the_lesson_json_and_the_quiz_until_released() {
    JsonNode room = newClass("Twins");
    String id = room.get("id").asText();
    Client member = Client.student(server, room.get("code").asText(), "Tess");
    String ladderAnswer = "A source that can be replayed from stored positions";
    String twinAnswer = "A replayable source; a consistent snapshot of the state";
    assertEquals(200, teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L1\"]}").statusCode());

    String page = member.get("/lessons/exactly-once").body();
    assertFalse(page.contains(ladderAnswer), "the ladder answer is held");
    assertFalse(page.contains(twinAnswer), "its Interview Q&A twin is held too");
    assertEquals(2, page.split("data-held=\"L1\"", -1).length - 1, "both places are marked held");
    String lesson = member.get("/api/lessons/exactly-once").body();
    assertFalse(lesson.contains(ladderAnswer) || lesson.contains(twinAnswer), lesson);
    assertEquals(409, member.get("/api/lessons/exactly-once/answers/L1").statusCode(), "a held answer is not handed out");

    String topic = null;
    for (JsonNode q : json(member.get("/api/quiz/lessons/exactly-once")).get("questions")) {
      if (q.get("id").asText().equals("exactly-once/iq1")) topic = q.get("topic").asText();
    }
    HttpResponse<String> started = member.post("/api/quiz/sessions",
        "{\"lesson\":\"exactly-once\",\"length\":50,\"topic\":" + Client.quote(topic) + "}");
    assertEquals(201, started.statusCode(), started.body());
    String quizPage = member.get("/lessons/exactly-once/quiz/" + json(started).get("id").asText()).body();
    // One quiz asks one of a rung and its twin, since they are one idea in one topic.
    assertTrue(quizPage.contains("data-item=\"iq1\"") || quizPage.contains("data-item=\"L1\""), "the quiz asks the idea");
    assertFalse(quizPage.contains(twinAnswer) || quizPage.contains(ladderAnswer), "the quiz page carries neither model answer");

    assertEquals("{\"held\":[],\"released\":[\"L1\"]}", teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[]}").body());
    String released = member.get("/lessons/exactly-once").body();
    assertTrue(released.contains(ladderAnswer) && released.contains(twinAnswer), "both answers are back");
    assertFalse(released.contains("data-held"), "nothing is marked held");
    JsonNode answers = json(member.get("/api/lessons/exactly-once/answers/L1"));
    assertEquals(List.of("qa/L1", "qa/iq1"), answers.findValuesAsText("id"));
    assertTrue(answers.get(1).get("html").asText().contains(twinAnswer), answers.toString());
    assertTrue(member.get("/api/lessons/exactly-once").body().contains(twinAnswer));
  }
}
