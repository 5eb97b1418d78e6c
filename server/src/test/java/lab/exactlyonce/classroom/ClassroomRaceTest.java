package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.Race;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.error;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Requests for one fact fired at once: a student's answers to one live round, joins under one nickname, one learner's
 * joins. One is recorded; a resend of it gets its response; every other request is 409 with the reason; none is 5xx.
 */
class ClassroomRaceTest extends ServerTest {
  @Override
  protected TestServer startServer() {
    Config config = Client.config();
    return TestServer.start(config.withClassroom(config.classroom().withLimits(10_000, 10_000, 10_000)));
  }

  private JsonNode newClass(Client teacher) {
    return json(teacher.post("/api/teach/classes", "{\"name\":\"Race\"}"));
  }

  static Stream<Arguments> answerRaces() {
    return Stream.of(
        arguments("12 answers, each under its own id, with different choices", Race.sends(12, i -> i, i -> i % 2)),
        arguments("32 answers, each under its own id, all with one choice", Race.sends(32, i -> i, i -> 0)),
        arguments("16 sends of one id with one choice", Race.sends(16, i -> 0, i -> 1)),
        arguments("16 sends of one id with two choices", Race.sends(16, i -> 0, i -> i % 2)),
        arguments("24 sends: 8 ids, each sent three times", Race.sends(24, i -> i / 3, i -> (i / 3) % 2)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answerRaces")
  void one_live_answer_per_round_and_student_is_stored(String race, List<Race.Send> sends) throws Exception {
    Client teacher = Client.instructor(server, SECRET);
    JsonNode room = newClass(teacher);
    String classId = room.get("id").asText();
    Client student = Client.student(server, room.get("code").asText(), "Ada");
    String question = json(teacher.get("/api/teach/classes/" + classId + "/questions")).get(0).get("id").asText();
    String round = teacher.pushRound(classId, question);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < sends.size(); i++) ids.add(newId());

    List<HttpResponse<String>> answers = Race.run(sends.size(),
        i -> student.sendAnswer(classId, ids.get(sends.get(i).id()), round, sends.get(i).choice()));

    List<JsonNode> stored = new ArrayList<>();
    for (JsonNode e : json(student.get("/api/me/export")).get("events")) {
      if (e.get("data").path("round").asText().equals(round)) stored.add(e);
    }
    assertEquals(1, stored.size(), race + ": one answer stored, got " + stored);
    String winnerId = stored.get(0).get("id").asText();
    int winnerChoice = stored.get(0).get("data").get("choice").asInt();
    String winnerBody = null;
    for (int i = 0; i < sends.size(); i++) {
      HttpResponse<String> answer = answers.get(i);
      String id = ids.get(sends.get(i).id());
      if (id.equals(winnerId) && sends.get(i).choice() == winnerChoice) {
        assertEquals(200, answer.statusCode(), race + ": " + answer.body());
        if (winnerBody == null) winnerBody = answer.body();
        assertEquals(winnerBody, answer.body(), race + ": every send of the stored answer gets its response");
      } else if (id.equals(winnerId)) {
        assertEquals(409, answer.statusCode(), answer.body());
        assertEquals(error("answer id '" + winnerId + "' was already used for a different answer; nothing was stored"), answer.body());
      } else {
        assertEquals(409, answer.statusCode(), race + ": " + answer.body());
        assertEquals(error("you already answered this question; your first answer counts"), answer.body());
      }
    }
    int total = 0;
    for (JsonNode c : json(teacher.live(classId, "reveal", "{}")).get("counts")) total += c.asInt();
    assertEquals(1, total, "the histogram counts the student once");
  }

  static Stream<Arguments> nicknameRaces() {
    return Stream.of(
        arguments("16 learners, one nickname", List.of("Ada"), 16),
        arguments("32 learners, one nickname", List.of("Grace"), 32),
        arguments("16 learners, one nickname in four spellings of case", List.of("Ada", "ADA", "ada", "aDa"), 16),
        arguments("12 learners, one nickname with and without spaces around it", List.of("Linus", " Linus", "Linus  "), 12));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nicknameRaces")
  void a_nickname_goes_to_one_learner_of_the_class(String race, List<String> spellings, int learners) throws Exception {
    Client teacher = Client.instructor(server, SECRET);
    JsonNode room = newClass(teacher);
    List<Client> clients = new ArrayList<>();
    for (int i = 0; i < learners; i++) clients.add(new Client(server));

    List<HttpResponse<String>> joins = Race.run(learners,
        i -> clients.get(i).join(room.get("code").asText(), spellings.get(i % spellings.size())));

    int created = 0;
    for (int i = 0; i < learners; i++) {
      HttpResponse<String> join = joins.get(i);
      if (join.statusCode() == 201) {
        created++;
      } else {
        assertEquals(409, join.statusCode(), race + ": " + join.body());
        assertEquals(error("the nickname '" + spellings.get(i % spellings.size()).strip() + "' is taken in this class; pick another"),
            join.body());
      }
    }
    assertEquals(1, created, race + ": one join made");
    int members = 0;
    for (Client c : clients) {
      for (JsonNode k : json(c.get("/api/me/export")).path("classes")) if (k.get("class").asText().equals("Race")) members++;
    }
    assertEquals(1, members, race + ": one learner holds the nickname");
  }

  @Test
  void one_learner_joining_many_times_at_once_is_one_member_and_every_join_says_so() throws Exception {
    Client teacher = Client.instructor(server, SECRET);
    JsonNode room = newClass(teacher);
    Client learner = new Client(server);
    JsonNode other = newClass(teacher);
    assertEquals(201, learner.join(other.get("code").asText(), "Warm-up").statusCode(), "the learner has a cookie");

    List<HttpResponse<String>> joins = Race.run(16, i -> learner.join(room.get("code").asText(), "Ada " + (i % 4)));

    int created = 0;
    String nickname = null;
    for (HttpResponse<String> join : joins) {
      if (join.statusCode() == 201) created++;
      else assertEquals(200, join.statusCode(), join.body());
      String named = json(join).get("nickname").asText();
      if (nickname == null) nickname = named;
      assertEquals(nickname, named, "every join answers with the one membership");
    }
    assertEquals(1, created);
    long memberships = 0;
    for (JsonNode k : json(learner.get("/api/me/export")).path("classes")) if (k.get("class").asText().equals("Race")) memberships++;
    assertEquals(2, memberships, "the warm-up class and this one, once");
  }
}
