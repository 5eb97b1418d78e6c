package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The key points of a held answer give it away, so scoring an answer to it waits for the release too. */
class HeldKeyPointsHttpTest extends ClassroomServerTest {
  private static final String ANSWER = "{\"answer\":\"Each producer session bumps the epoch of the transactional id, "
      + "and an old epoch is rejected by the coordinator.\"}";

  @Test
  void a_held_question_and_its_interview_twin_are_not_scored_until_released() {
    JsonNode room = newClass("Key points");
    String id = room.get("id").asText();
    Client member = Client.student(server, room.get("code").asText(), "Kim");
    Client outsider = new Client(server);
    teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[\"L5\"]}");

    for (String item : new String[] {"L5", "iq5"}) {
      HttpResponse<String> held = member.post("/api/lessons/exactly-once/questions/" + item + "/score", ANSWER);
      assertEquals(409, held.statusCode(), held.body());
      assertTrue(held.body().contains("still held back by your instructor"), held.body());
      assertFalse(held.body().contains("epoch is"), "no point label leaks: " + held.body());
    }
    assertEquals(200, outsider.post("/api/lessons/exactly-once/questions/L5/score", ANSWER).statusCode());

    teacher.put("/api/teach/classes/" + id + "/holds", "{\"held\":[]}");
    HttpResponse<String> released = member.post("/api/lessons/exactly-once/questions/L5/score", ANSWER);
    assertEquals(200, released.statusCode(), released.body());
    assertTrue(released.body().contains("\"scored\":true"), released.body());
  }
}
