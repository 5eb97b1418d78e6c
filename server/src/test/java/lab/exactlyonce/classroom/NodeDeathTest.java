package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TestPostgres;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node killed mid-question (SIGKILL, as the kernel's OOM killer or a lost machine would): its students reconnect to
 * the node that is left, find the open question there, retry what they sent and get the next question; the results
 * hold every answer exactly once.
 */
class NodeDeathTest {
  @Test
  @Timeout(240) // two app starts on a busy 2-core machine
  void students_of_a_killed_node_carry_on_on_the_other_and_the_csv_stays_exact() throws Exception {
    // B is the production app in a process of its own, on the system's clock. A reads that clock too: each node reads
    // what the other wrote with its time (who is online, keys, deadlines) against its own, and B would drop A's rows.
    try (TestPostgres db = TestPostgres.create();
         TestServer a = TestServer.start(Client.config().withStore(db.store()).withClock(Clock.systemUTC()));
         TestServer b = TestServer.startProcess(Map.of("JDBC_URL", db.url(), "JDBC_USER", db.user(),
             "JDBC_PASSWORD", db.password(), "INSTRUCTOR_SECRET", SECRET, "SANDBOX_WORKERS", "1",
             "SANDBOX_CONFINEMENT", "none"))) { // it runs no code: no confinement self-check to wait for
      Client teacher = Client.instructor(a, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Survivors\"}"));
      String id = room.get("id").asText();
      String code = room.get("code").asText();
      Client ada = Client.student(a, code, "Ada");
      Client bob = Client.student(b, code, "Bob");
      List<JsonNode> questions = List.copyOf(json(teacher.get("/api/teach/classes/" + id + "/questions")).findParents("id"));

      String first;
      String bobsAnswer = newId();
      try (var adaStream = new ClassroomLiveTest.Stream(a, ada, "/api/classes/" + id + "/stream");
           var bobStream = new ClassroomLiveTest.Stream(b, bob, "/api/classes/" + id + "/stream")) {
        adaStream.next("idle", "Waiting");
        bobStream.next("idle", "Waiting");
        first = teacher.pushRound(id, questions.get(0).get("id").asText());
        adaStream.next("question", first);
        bobStream.next("question", first);
        assertEquals(200, ada.sendAnswer(id, newId(), first, 0).statusCode());
        assertEquals(200, bob.sendAnswer(id, bobsAnswer, first, 1).statusCode());
        b.kill(); // mid-question: Bob's answer was stored, his browser was not told in time to clear its outbox
      }

      Client bobOnA = bob.on(a);
      try (var bobAgain = new ClassroomLiveTest.Stream(a, bobOnA, "/api/classes/" + id + "/stream")) {
        bobAgain.next("question", first); // the node that is left shows him the open question at once
        HttpResponse<String> retried = bobOnA.sendAnswer(id, bobsAnswer, first, 1);
        assertEquals(200, retried.statusCode(), "the outbox's retry is answered as the first send was: " + retried.body());
        assertEquals(bobsAnswer, json(retried).get("id").asText());

        String second = teacher.pushRound(id, questions.get(1).get("id").asText());
        bobAgain.next("question", second);
        assertEquals(200, bobOnA.sendAnswer(id, newId(), second, 0).statusCode());
        assertEquals(200, ada.sendAnswer(id, newId(), second, 1).statusCode());

        String csv = teacher.get("/teach/classes/" + id + "/results.csv").body();
        for (String round : List.of(first, second)) {
          for (String nick : List.of("Ada", "Bob")) {
            assertEquals(1, csv.lines().filter(l -> l.contains(round) && l.contains("," + nick + ",")).count(),
                nick + " answered round " + round + " once:\n" + csv);
          }
        }
        assertEquals(5, csv.lines().count(), "a header and four answers:\n" + csv);
      }
    }
  }
}
