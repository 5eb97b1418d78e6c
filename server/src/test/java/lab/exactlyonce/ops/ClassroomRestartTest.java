package lab.exactlyonce.ops;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.bench.SseHub;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real app's graceful stop with a student's live classroom stream open: the stream ends with a reconnect hint,
 * and once the app is started again on the same port and data directory the student's stream (an EventSource-like
 * client) reconnects by itself and receives the next pushed question.
 */
class ClassroomRestartTest {
  private static final String SECRET = "restart-test-instructor-secret";

  private static HttpResponse<String> send(TestServer server, String cookie, String method, String path, String json) {
    var request = HttpRequest.newBuilder(URI.create(server.url(path))).header("Sec-Fetch-Site", "same-origin");
    if (cookie != null) request.header("Cookie", cookie);
    if (json == null) request.method(method, HttpRequest.BodyPublishers.noBody());
    else request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
    return server.sendAsIs(request.build());
  }

  private static String cookie(HttpResponse<String> res, String name) {
    return res.headers().allValues("Set-Cookie").stream().map(c -> c.split(";", 2)[0])
        .filter(c -> c.startsWith(name + "=")).findFirst().orElseThrow(() -> new AssertionError("no " + name + " cookie"));
  }

  @Test
  void a_students_live_stream_reconnects_to_the_restarted_app_and_gets_the_next_question() throws Exception {
    Config config = TestConfig.defaults();
    config = config.withClassroom(config.classroom().withInstructorSecret(SECRET));
    TestServer first = TestServer.start(config);
    int port = first.app().port();
    List<SseHub.Event> events = new CopyOnWriteArrayList<>();
    TestServer second = null;
    try (SseHub hub = new SseHub(new InetSocketAddress("127.0.0.1", port), (stream, event) -> events.add(event))) {
      var login = first.sendAsIs(HttpRequest.newBuilder(URI.create(first.url("/teach/login")))
          .header("Content-Type", "application/x-www-form-urlencoded").header("Sec-Fetch-Site", "same-origin")
          .POST(HttpRequest.BodyPublishers.ofString("secret=" + SECRET)).build());
      assertEquals(303, login.statusCode());
      String instructor = cookie(login, "eolab_instructor");
      JsonNode room = JSON.readTree(send(first, instructor, "POST", "/api/teach/classes",
          "{\"name\":\"Restart\",\"lesson\":\"exactly-once\"}").body());
      String classId = room.get("id").asText();
      var joined = send(first, null, "POST", "/api/join", "{\"code\":\"" + room.get("code").asText() + "\",\"nickname\":\"Ada\"}");
      assertEquals(201, joined.statusCode(), joined.body());
      String student = cookie(joined, "eolab_learner");

      SseHub.Stream stream = hub.open(InetAddress.getByName("127.0.0.1"), "/api/classes/" + classId + "/stream",
          Map.of("Cookie", student));
      await("the first idle event").until(() -> events.stream().anyMatch(e -> e.type().equals("idle")));
      assertTrue(first.get("/metrics").body().contains("\neolab_sse_connections 1.0\n"));

      first.close();   // App.stop(): the graceful stop
      await("the stream to end").until(() -> !stream.isOpen());
      assertEquals(1, stream.connects());

      second = TestServer.start(config.withPort(port));
      await("the stream to reconnect").until(() -> stream.connects() == 2 && stream.isOpen());
      var questions = JSON.readTree(send(second, instructor, "GET", "/api/teach/classes/" + classId + "/questions", null).body());
      var push = send(second, instructor, "POST", "/api/teach/classes/" + classId + "/live/push",
          "{\"question\":\"" + questions.get(0).get("id").asText() + "\"}");
      assertEquals(200, push.statusCode(), push.body());
      String round = JSON.readTree(push.body()).get("round").asText();
      await("the pushed question on the reconnected stream")
          .until(() -> events.stream().anyMatch(e -> e.type().equals("question") && e.data().contains(round)));
      assertTrue(second.get("/metrics").body().contains("\neolab_sse_connections 1.0\n"));
    } finally {
      first.close(); // already stopped unless an assertion before the restart failed
      if (second != null) second.close();
    }
  }

  /** A wait for {@code what}, checked every 20 ms from the start; fails after 20 s. */
  private static ConditionFactory await(String what) {
    return Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }

}
