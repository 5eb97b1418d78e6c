package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.BeforeAll;

import java.net.http.HttpResponse;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.error;
import static lab.exactlyonce.classroom.Client.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server with the classroom's test secret and an instructor signed in to it, for the classroom's HTTP tests. The
 * live question bank behind them runs snippet variants (in this JVM: {@link lab.exactlyonce.sandbox.InProcessSandbox}).
 */
abstract class ClassroomServerTest extends ServerTest {
  static final String SIGN_IN = error("instructor sign-in required: sign in at /teach/login");
  static final String NOT_MEMBER = error("you are not a member of this class: join it with its code at /join");

  Client teacher;
  /** The server's clock: a test moves it on (never back) instead of sleeping. */
  TestClock clock;

  @Override
  protected TestServer startServer() {
    Config config = Client.config();
    clock = TestClock.of(config);
    return TestServer.start(config);
  }

  @BeforeAll
  void signIn() {
    teacher = Client.instructor(server, SECRET);
  }

  /** A new class; returns its JSON. */
  JsonNode newClass(String name) {
    HttpResponse<String> res = teacher.post("/api/teach/classes", "{\"name\":" + Client.quote(name) + ",\"lesson\":\"exactly-once\"}");
    assertEquals(201, res.statusCode(), res.body());
    return json(res);
  }

  String firstQuestion(String classId) {
    JsonNode questions = json(teacher.get("/api/teach/classes/" + classId + "/questions"));
    assertTrue(questions.size() > 0, "the bank has pushable questions");
    return questions.get(0).get("id").asText();
  }
}
