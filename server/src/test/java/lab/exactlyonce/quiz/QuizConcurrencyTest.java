package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Race;
import lab.exactlyonce.ServerTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Answers to one question of one quiz session sent at once, under many ids and with different choices: one answer is
 * stored, the requests that resend its id and body get its response, and every other one is 409; none is a 5xx.
 */
class QuizConcurrencyTest extends ServerTest {

  static Stream<Arguments> races() {
    return Stream.of(
        arguments("12 answers, each under its own id, with different choices", Race.sends(12, i -> i, i -> i % 4)),
        arguments("32 answers, each under its own id, all with one choice", Race.sends(32, i -> i, i -> 0)),
        arguments("16 sends of one id with one choice", Race.sends(16, i -> 0, i -> 1)),
        arguments("16 sends of one id with four choices", Race.sends(16, i -> 0, i -> i % 4)),
        arguments("24 sends: 8 ids, each sent three times", Race.sends(24, i -> i / 3, i -> (i / 3) % 4)),
        arguments("24 sends: 12 ids, each sent twice with two choices", Race.sends(24, i -> i / 2, i -> i % 2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("races")
  void one_answer_per_question_and_session_is_stored(String race, List<Race.Send> sends) throws Exception {
    QuizClient learner = new QuizClient(server);
    JsonNode session = learner.start("{\"lesson\":\"exactly-once\",\"length\":5,\"topic\":\"Sink strategies\",\"seed\":3}");
    JsonNode question = session.get("questions").get(0);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < sends.size(); i++) ids.add(UUID.randomUUID().toString());

    List<HttpResponse<String>> answers = Race.run(sends.size(),
        i -> learner.answer(ids.get(sends.get(i).id()), session, question, "\"choice\":" + sends.get(i).choice()));

    List<JsonNode> stored = new ArrayList<>();
    for (JsonNode e : QuizClient.json(learner.get("/api/me/export")).get("events")) {
      if (e.get("type").asText().equals("quiz.answer") && e.get("data").get("question").asText().equals(question.get("id").asText())) {
        stored.add(e);
      }
    }
    assertEquals(1, stored.size(), race + ": one answer stored, got " + stored);
    String winnerId = stored.get(0).get("id").asText();
    int winnerChoice = stored.get(0).get("data").get("choice").asInt();
    String winnerBody = null;
    for (int i = 0; i < sends.size(); i++) {
      HttpResponse<String> answer = answers.get(i);
      boolean resendOfWinner = ids.get(sends.get(i).id()).equals(winnerId) && sends.get(i).choice() == winnerChoice;
      if (resendOfWinner) {
        assertEquals(200, answer.statusCode(), race + ": " + answer.body());
        if (winnerBody == null) winnerBody = answer.body();
        assertEquals(winnerBody, answer.body(), race + ": every send of the stored answer gets its response");
      } else if (ids.get(sends.get(i).id()).equals(winnerId)) {
        assertEquals(409, answer.statusCode(), answer.body());
        assertEquals("{\"error\":\"event id '" + winnerId + "' was already used for a different event (quiz.answer of '"
            + question.get("item").asText() + "' in lesson 'exactly-once'); nothing was stored: send a new id for a new event\"",
            answer.body().substring(0, answer.body().indexOf(",\"original\"")));
      } else {
        assertEquals(409, answer.statusCode(), race + ": " + answer.body());
        assertEquals("{\"error\":\"question '" + question.get("id").asText() + "' was already answered in quiz session '"
            + session.get("id").asText() + "'; nothing was stored\"}", answer.body());
      }
    }
    JsonNode results = QuizClient.json(learner.get("/api/quiz/sessions/" + session.get("id").asText() + "/results"));
    assertEquals(1, results.get("answered").asInt(), "the results count the question once");
  }
}
