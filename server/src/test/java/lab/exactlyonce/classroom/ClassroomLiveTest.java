package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live streams (students get pushed questions, the instructor a live histogram and roster) and restarts. */
class ClassroomLiveTest {

  /** An open SSE stream: its events as "name data" lines. */
  static final class Stream implements AutoCloseable {
    final BlockingQueue<String[]> events = new LinkedBlockingQueue<>();
    final CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> response;

    Stream(TestServer server, Client who, String path) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(server.url(path))).header("Cookie", who.cookieHeader())
          .header("Accept", "text/event-stream").GET().build();
      response = HttpClient.newHttpClient().sendAsync(request, HttpResponse.BodyHandlers.ofLines());
      response.thenAccept(res -> {
        String[] event = {null, null};
        res.body().forEach(line -> {
          if (line.startsWith("event:")) event[0] = line.substring(6).strip();
          else if (line.startsWith("data:")) event[1] = line.substring(5).strip();
          else if (line.isEmpty() && event[0] != null) {
            events.add(new String[] {event[0], event[1]});
            event[0] = null;
            event[1] = null;
          }
        });
      });
    }

    /** The next event called {@code name} whose data contains {@code text}, skipping others; fails after 10 s. */
    JsonNode next(String name, String text) {
      String data = await("a '" + name + "' event containing '" + text + "'").atMost(Duration.ofSeconds(10))
          .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> skipTo(name, text), Objects::nonNull);
      try {
        return Client.JSON.readTree(data);
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }

    /**
     * Every event received before the next one called {@code name} whose data contains {@code text} (which is taken
     * too), as {name, data} pairs; fails after 10 s.
     */
    List<String[]> until(String name, String text) {
      List<String[]> before = new ArrayList<>();
      await("a '" + name + "' event containing '" + text + "'").atMost(Duration.ofSeconds(10))
          .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
            for (String[] e = events.poll(); e != null; e = events.poll()) {
              if (e[0].equals(name) && e[1].contains(text)) return true;
              before.add(e);
            }
            return false;
          });
      return before;
    }

    /** The data of the first event received so far that matches, with every event before it dropped; null if none. */
    private String skipTo(String name, String text) {
      for (String[] e = events.poll(); e != null; e = events.poll()) {
        if (e[0].equals(name) && e[1].contains(text)) return e[1];
      }
      return null;
    }

    @Override
    public void close() {
      response.thenAccept(res -> res.body().close());
      response.cancel(true);
    }
  }

  @Test
  void students_see_a_pushed_question_and_the_instructor_sees_answers_arrive() throws Exception {
    try (TestServer server = TestServer.start(Client.config())) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Live <stream>\"}"));
      String id = room.get("id").asText();
      Client kim = Client.student(server, room.get("code").asText(), "Kim <3");
      try (Stream dash = new Stream(server, teacher, "/api/teach/classes/" + id + "/stream");
           Stream student = new Stream(server, kim, "/api/classes/" + id + "/stream")) {
        student.next("idle", "Waiting for your instructor");
        dash.next("roster", "1 of 1 online");
        assertTrue(json(teacher.get("/api/teach/classes/" + id)).get("students").get(0).get("online").asBoolean());

        String question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
        String round = teacher.pushRound(id, question);
        JsonNode pushed = student.next("question", round);
        assertEquals(question, pushed.get("question").asText());
        assertTrue(pushed.get("html").asText().contains("data-round=\"" + round + "\""));
        dash.next("live", "0 of 1");

        assertEquals(200, kim.sendAnswer(id, newId(), round, 0).statusCode());
        JsonNode live = dash.next("live", "1 of 1");
        assertTrue(live.get("html").asText().contains("<td class=\"count\" data-option=\"0\">1</td>"), live.get("html").asText());

        teacher.live(id, "reveal", "{}");
        JsonNode revealed = student.next("reveal", round);
        assertTrue(revealed.get("html").asText().contains("You got it right.") || revealed.get("html").asText().contains("Not this time"));
        JsonNode roster = dash.next("roster", "Kim");
        assertTrue(roster.get("html").asText().contains("Kim &lt;3"), "nicknames are escaped in fragments");
      }
    }
  }

  @Test
  void the_projector_stream_carries_no_split_before_the_reveal_unless_asked_for_live_counts() throws Exception {
    try (TestServer server = TestServer.start(Client.config())) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Projected\"}"));
      String id = room.get("id").asText();
      Client kim = Client.student(server, room.get("code").asText(), "Kim");
      try (Stream dash = new Stream(server, teacher, "/api/teach/classes/" + id + "/stream");
           Stream projector = new Stream(server, teacher, "/api/teach/classes/" + id + "/projector/stream");
           Stream counting = new Stream(server, teacher,
               "/api/teach/classes/" + id + "/projector/stream?counts=live")) {
        projector.next("live", "Join now");
        counting.next("live", "Join now");
        JsonNode questions = json(teacher.get("/api/teach/classes/" + id + "/questions"));
        String round = teacher.pushRound(id, questions.get(0).get("id").asText());
        assertEquals(200, kim.sendAnswer(id, newId(), round, 0).statusCode());
        String count = "<td class=\"count\" data-option=\"0\">1</td>";
        assertTrue(dash.next("live", "1 of 1").get("html").asText().contains(count),
            "the dashboard's histogram fills live");
        assertTrue(counting.next("live", "1 of 1").get("html").asText().contains(count), "live counts were asked for");
        teacher.live(id, "reveal", "{}");
        List<String[]> before = projector.until("live", "data-state=\\\"revealed\\\"");
        assertTrue(before.stream().anyMatch(e -> e[1].contains("1 of 1")), "the projector heard of the answer");
        for (String[] e : before) {
          assertFalse(e[1].contains("class=\\\"count\\\""), "a split before the reveal: " + e[1]);
        }
        teacher.live(id, "leaderboard", "{\"show\":true}");
        assertTrue(projector.next("live", "Leaderboard").get("html").asText().contains(count),
            "counts after the reveal");
      }
    }
  }

  @Test
  void a_timed_question_closes_for_everyone_when_its_time_is_up() throws Exception {
    Config config = Client.config();
    try (TestServer server = TestServer.start(config)) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Timed\"}"));
      String id = room.get("id").asText();
      Client early = Client.student(server, room.get("code").asText(), "Early");
      Client late = Client.student(server, room.get("code").asText(), "Late");
      Client tooLateStudent = Client.student(server, room.get("code").asText(), "TooLate");
      try (Stream dash = new Stream(server, teacher, "/api/teach/classes/" + id + "/stream");
           Stream lateStream = new Stream(server, late, "/api/classes/" + id + "/stream")) {
        lateStream.next("idle", "Waiting for your instructor");
        dash.next("roster", "1 of 3 online");
        String question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
        TestClock.of(config).stop(); // from the push on only the test moves time: the grace's edge is a millisecond
        String round = json(teacher.live(id, "push", "{\"question\":" + Client.quote(question) + ",\"timeLimit\":5}"))
            .get("round").asText();
        JsonNode asked = lateStream.next("question", round);
        assertEquals(5, asked.get("timeLimit").asInt());
        assertTrue(asked.get("html").asText().contains("Time left: 0:0"), asked.get("html").asText());
        String earlyId = newId();
        HttpResponse<String> inTime = early.sendAnswer(id, earlyId, round, 0);
        assertEquals(200, inTime.statusCode(), inTime.body());

        // The server says when the time is up and every page closes the question then. An answer tapped in the
        // phone's last second, still on its way, counts; one that comes later is refused, whatever a page shows.
        TestClock.of(config).advance(Duration.ofSeconds(5));
        JsonNode closed = lateStream.next("timeup", "Time is up: answers are closed.");
        assertTrue(closed.get("html").asText().contains("data-state=\"timeup\""), closed.get("html").asText());
        TestClock.of(config).advance(Duration.ofMillis(1999));
        HttpResponse<String> onItsWay = late.sendAnswer(id, newId(), round, 1);
        assertEquals(200, onItsWay.statusCode(), onItsWay.body());
        TestClock.of(config).advance(Duration.ofMillis(1));
        HttpResponse<String> tooLate = tooLateStudent.sendAnswer(id, newId(), round, 1);
        assertEquals(409, tooLate.statusCode());
        assertEquals(Client.error("time is up for this question: answers closed 5 seconds after it was asked"), tooLate.body());
        assertEquals(inTime.body(), early.sendAnswer(id, earlyId, round, 0).body(),
            "a retry of an answer sent in time still gets its receipt");
        dash.next("live", "Time is up; answers are closed.");
        JsonNode revealed = json(teacher.live(id, "reveal", "{}"));
        int counted = 0;
        for (JsonNode c : revealed.get("counts")) counted += c.asInt();
        assertEquals(2, counted, "the answers in time and on their way count, the late one does not");
      }
    }
  }

  @Test
  void each_student_finds_themself_on_the_anonymous_board_and_on_the_podium_until_it_is_hidden() throws Exception {
    try (TestServer server = TestServer.start(Client.config())) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Ranks\"}"));
      String id = room.get("id").asText();
      Client ace = Client.student(server, room.get("code").asText(), "Ace");
      Client bo = Client.student(server, room.get("code").asText(), "Bo");
      try (Stream aceStream = new Stream(server, ace, "/api/classes/" + id + "/stream");
           Stream boStream = new Stream(server, bo, "/api/classes/" + id + "/stream")) {
        aceStream.next("idle", "Waiting");
        boStream.next("idle", "Waiting");
        JsonNode question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0);
        int right = question.get("answer").asInt();
        String round = teacher.pushRound(id, question.get("id").asText());
        assertEquals(200, ace.sendAnswer(id, newId(), round, right).statusCode());
        assertEquals(200, bo.sendAnswer(id, newId(), round, right == 0 ? 1 : 0).statusCode());
        teacher.live(id, "reveal", "{}");
        teacher.live(id, "leaderboard", "{\"show\":true,\"anonymous\":true}");
        String aceBoard = aceStream.next("leaderboard", "(you)").get("html").asText();
        assertTrue(aceBoard.contains("<li value=\"1\" class=\"place-1 me\"><span class=\"lb-name\">Student 1</span>"
            + "<strong class=\"lb-you\"> (you)</strong>"), aceBoard);
        assertFalse(aceBoard.contains("Ace") || aceBoard.contains("Bo"), "no nicknames on an anonymous board");
        String boBoard = boStream.next("leaderboard", "(you)").get("html").asText();
        assertTrue(boBoard.contains("<li value=\"2\" class=\"place-2 me\"><span class=\"lb-name\">Student 2</span>"
            + "<strong class=\"lb-you\"> (you)</strong>"), boBoard);
        assertEquals(1, boBoard.split("\\(you\\)", -1).length - 1, "only Bo is marked on Bo's board");

        teacher.live(id, "end", "{}");
        aceStream.next("idle", "Waiting");
        String podium = aceStream.next("leaderboard", "Podium").get("html").asText();
        assertTrue(podium.contains("<span class=\"lb-place\">place 1 of 2</span>"),
            "the session ends on its podium: " + podium);
        teacher.live(id, "leaderboard", "{\"show\":false}");
        assertEquals("", aceStream.next("leaderboard", "\"html\":\"\"").get("html").asText(), "the board leaves the screen");
      }
    }
  }

  @Test
  void classes_members_and_instructor_sessions_survive_a_restart_and_the_generated_secret_is_printed_once() throws Exception {
    Config config = TestConfig.defaults();
    Path file = config.dataDir().resolve(InstructorAuth.SECRET_FILE);
    String secret;
    Client teacher;
    Client student;
    JsonNode room;
    TestServer first = TestServer.start(config);
    try {
      // What Main prints at the start: the instructor's line says the secret was made, and where.
      List<String> lines = first.app().startupLines();
      secret = Files.readString(file).strip();
      assertTrue(secret.matches("[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}"), secret);
      assertEquals("An instructor secret was generated into " + file.toAbsolutePath()
          + " (readable by this user only); sign in at /teach with its contents", lines.get(1));
      assertFalse(String.join("\n", lines).contains(secret), "standard output (a container's log) never carries the secret");
      assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
      teacher = Client.instructor(first, secret);
      room = json(teacher.post("/api/teach/classes", "{\"name\":\"Durable\"}"));
      student = Client.student(first, room.get("code").asText(), "Stays");
    } finally {
      first.close();
    }
    // A port of its own: the clients carry their cookies over by name (Client.on), not by origin.
    try (TestServer second = TestServer.start(config)) {
      assertEquals("Instructor: sign in at /teach with the secret in " + file.toAbsolutePath(),
          second.app().startupLines().get(1), "the secret is announced as new only when it is made");
      teacher = teacher.on(second);
      student = student.on(second);
      JsonNode again = json(teacher.get("/api/teach/classes/" + room.get("id").asText()));
      assertEquals(room.get("code").asText(), again.get("code").asText());
      assertEquals("Stays", again.get("students").get(0).get("nickname").asText());
      assertEquals(200, student.get("/classes/" + room.get("id").asText()).statusCode());
    }
  }

  @Test
  void a_configured_secret_must_be_long_enough_and_is_never_shown() {
    var error = org.junit.jupiter.api.Assertions.assertThrows(Config.ConfigException.class,
        () -> Config.from(new String[] {"--instructor-secret", "short"}, java.util.Map.of()));
    assertEquals("--instructor-secret must be at least 12 characters long, got 5", error.getMessage());
    Config fromEnv = Config.from(new String[0], java.util.Map.of("INSTRUCTOR_SECRET", "from-the-environment"));
    assertEquals("from-the-environment", fromEnv.classroom().instructorSecret().orElseThrow());
    assertFalse(fromEnv.toString().contains("from-the-environment"));
    assertNotNull(fromEnv.classroom());
  }
}
