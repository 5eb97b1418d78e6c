package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A class answering at once, every student sending twice and trying a second answer: each answer counts once. */
class ClassroomConcurrencyTest {
  static final int STUDENTS = 40;

  @Test
  void concurrent_duplicate_and_second_answers_are_recorded_once_each() throws Exception {
    Config config = Client.config();
    try (TestServer server = TestServer.start(config.withClassroom(config.classroom().withLimits(1000, 1000, 100)))) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Crowd\"}"));
      String id = room.get("id").asText();
      List<Client> students = new ArrayList<>();
      for (int i = 0; i < STUDENTS; i++) students.add(Client.student(server, room.get("code").asText(), "student " + i));
      String question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
      String round = teacher.pushRound(id, question);

      ExecutorService pool = Executors.newFixedThreadPool(16);
      try {
        List<Callable<HttpResponse<String>>> sends = new ArrayList<>();
        for (int i = 0; i < STUDENTS; i++) {
          Client s = students.get(i);
          String answerId = newId();
          int choice = i % 2;
          sends.add(() -> s.sendAnswer(id, answerId, round, choice));
          sends.add(() -> s.sendAnswer(id, answerId, round, choice));
          sends.add(() -> s.sendAnswer(id, newId(), round, 1 - choice));
        }
        List<Future<HttpResponse<String>>> results = pool.invokeAll(sends);
        for (int i = 0; i < STUDENTS; i++) {
          HttpResponse<String> first = results.get(3 * i).get();
          HttpResponse<String> again = results.get(3 * i + 1).get();
          HttpResponse<String> other = results.get(3 * i + 2).get();
          if (first.statusCode() == 200) {
            assertEquals(first.body(), again.body(), "the same id sent twice at once gets the same response");
            assertEquals(409, other.statusCode(), other.body());
          } else {
            assertEquals(409, first.statusCode(), first.body());
            assertEquals(409, again.statusCode(), again.body());
            assertEquals(200, other.statusCode(), other.body());
          }
        }
      } finally {
        pool.shutdownNow();
      }
      JsonNode revealed = json(teacher.live(id, "reveal", "{}"));
      int total = 0;
      for (JsonNode c : revealed.get("counts")) total += c.asInt();
      assertEquals(STUDENTS, total, "one answer per student in the histogram");
      String csv = teacher.get("/teach/classes/" + id + "/results.csv").body();
      assertEquals(STUDENTS + 1, csv.split("\r\n").length, "one CSV row per student");
    }
  }
}
