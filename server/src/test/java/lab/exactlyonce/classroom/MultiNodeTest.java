package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.Race;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestPostgres;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.store.RotateKeys;
import lab.exactlyonce.store.SigningKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static lab.exactlyonce.classroom.Client.newId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two app nodes on one PostgreSQL database, as behind a load balancer that sends each request anywhere: whatever
 * one node was told, the other knows, and what happens on one reaches the streams of both.
 */
class MultiNodeTest {
  private static TestPostgres db;
  /** Both nodes' clock: one clock, as the nodes of a deployment share the time of day. */
  private static TestClock clock;
  private static TestServer a;
  private static TestServer b;

  @BeforeAll
  static void start() {
    db = TestPostgres.create();
    Config first = Client.config().withStore(db.store());
    clock = TestClock.of(first);
    a = TestServer.start(first);
    b = TestServer.start(Client.config().withStore(db.store()).withClock(clock));
  }

  @AfterAll
  static void stop() {
    if (b != null) b.close();
    if (a != null) a.close();
    if (db != null) db.close();
  }

  @Test
  void a_cookie_a_sign_in_and_a_round_from_one_node_count_on_the_other() {
    Client teacherOnA = Client.instructor(a, SECRET);
    Client teacherOnB = teacherOnA.on(b);
    JsonNode room = json(teacherOnB.post("/api/teach/classes", "{\"name\":\"Across nodes\"}"));
    assertEquals("Across nodes", room.get("name").asText(), "the instructor signed in on A acts on B");
    String id = room.get("id").asText();

    Client kimOnA = Client.student(a, room.get("code").asText(), "Kim");
    Client kimOnB = kimOnA.on(b);
    HttpResponse<String> state = kimOnB.get("/api/classes/" + id + "/state");
    assertEquals(200, state.statusCode(), "B accepts the learner cookie A signed: " + state.body());
    assertTrue(json(state).get("round").isNull(), "no question yet: " + state.body());

    String question = json(teacherOnA.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
    String round = teacherOnA.pushRound(id, question);
    assertEquals(round, json(kimOnB.get("/api/classes/" + id + "/state")).get("round").asText(), "B shows the round A pushed");
    HttpResponse<String> answer = kimOnB.sendAnswer(id, newId(), round, 1);
    assertEquals(200, answer.statusCode(), "a round pushed on A is answerable on B: " + answer.body());
    HttpResponse<String> again = kimOnA.sendAnswer(id, newId(), round, 0);
    assertEquals(409, again.statusCode(), "A knows the answer B took: " + again.body());
  }

  /**
   * The key rotation command run against the database while both nodes serve: nobody is signed out, and once the
   * signing delay has passed each node signs a learner's cookie anew with the new key.
   */
  @Test
  void keys_rotated_while_both_nodes_run_sign_nobody_out_and_every_node_takes_the_new_key() throws Exception {
    Client teacher = Client.instructor(a, SECRET);
    JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Rotation\"}"));
    String id = room.get("id").asText();
    Client kim = Client.student(a, room.get("code").asText(), "Kim");
    String before = kim.cookies.get(Learners.COOKIE);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = RotateKeys.run(new String[] {"--jdbc-url", db.url(), "--jdbc-user", db.user()}, db.password(),
        clock, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    assertTrue(out.toString(StandardCharsets.UTF_8).endsWith("Running nodes sign with the new keys in 10 s, once every node has read them.\n"),
        out.toString(StandardCharsets.UTF_8));

    for (TestServer node : List.of(a, b)) {
      Client kimThere = kim.on(node);
      assertEquals(200, kimThere.get("/api/classes/" + id + "/state").statusCode(), "Kim is still Kim");
      assertEquals(keyId(before), keyId(kimThere.cookies.get(Learners.COOKIE)),
          "before the signing delay " + (node == a ? "A" : "B") + " signs with the old key, which the other may not have read");
    }
    // The new key's time to sign comes, and each node's copy of the keys is older than the refresh time: it reads them.
    clock.advance(SigningKeys.SIGNING_DELAY);

    for (TestServer node : List.of(a, b)) {
      assertEquals(200, teacher.on(node).get("/api/teach/classes/" + id + "/questions").statusCode(),
          "the instructor's session still counts on " + node);
      Client kimThere = kim.on(node);
      assertEquals(200, kimThere.get("/api/classes/" + id + "/state").statusCode(), "Kim is still Kim");
      String now = kimThere.cookies.get(Learners.COOKIE);
      assertNotEquals(keyId(before), keyId(now), "the node signed Kim's cookie with the new key");
      assertEquals(200, kimThere.on(node == a ? b : a).get("/api/classes/" + id + "/state").statusCode(),
          "the other node accepts what this one signed with the new key");
    }
  }

  private static String keyId(String cookie) {
    return cookie.split("\\.")[1];
  }

  @Test
  void duplicate_answers_sent_to_both_nodes_at_once_store_one_row() throws Exception {
    Client teacher = Client.instructor(a, SECRET);
    JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Doubles\"}"));
    String id = room.get("id").asText();
    List<Client> students = List.of(Client.student(a, room.get("code").asText(), "Ana"),
        Client.student(b, room.get("code").asText(), "Ben"), Client.student(a, room.get("code").asText(), "Cy"));
    String question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
    String round = teacher.pushRound(id, question);

    for (Client student : students) {
      String sameId = newId();
      // four answers at once, two to each node: one answer sent twice (a retry), and two others under new ids
      List<HttpResponse<String>> sent = Race.run(4, i -> (i % 2 == 0 ? student.on(a) : student.on(b))
          .sendAnswer(id, i < 2 ? sameId : newId(), round, i < 2 ? 0 : 1));
      List<String> stored = sent.stream().filter(r -> r.statusCode() == 200).map(r -> json(r).get("id").asText()).distinct().toList();
      assertEquals(1, stored.size(), "one answer is stored, the others refused: "
          + sent.stream().map(r -> r.statusCode() + " " + r.body()).toList());
    }
    String csv = teacher.on(b).get("/teach/classes/" + id + "/results.csv").body();
    List<String> rows = csv.lines().filter(l -> l.contains(round)).toList();
    assertEquals(3, rows.size(), "one row per student:\n" + csv);
    for (String nick : List.of("Ana", "Ben", "Cy")) {
      assertEquals(1, rows.stream().filter(r -> r.contains("," + nick + ",")).count(), nick + " once:\n" + csv);
    }
  }

  /** Who is online is summed over the nodes: a student streaming on B counts on the dashboard of an instructor on A. */
  @Test
  void a_student_streaming_on_one_node_is_online_on_the_dashboard_of_the_other_until_the_stream_ends()
      throws Exception {
    Client teacher = Client.instructor(a, SECRET);
    JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Presence\"}"));
    String id = room.get("id").asText();
    Client.student(a, room.get("code").asText(), "Ada");
    Client bob = Client.student(b, room.get("code").asText(), "Bob");
    try (var dash = new ClassroomLiveTest.Stream(a, teacher, "/api/teach/classes/" + id + "/stream")) {
      try (var stream = new ClassroomLiveTest.Stream(b, bob, "/api/classes/" + id + "/stream")) {
        stream.next("idle", "Waiting");
        dash.next("roster", "1 of 2 online");
        assertEquals(List.of("Bob"), online(teacher.on(b), id), "B's view of the roster agrees");
      }
      // B notices the closed stream at its next heartbeat write, then tells A
      await("Bob offline on A's dashboard").atMost(Duration.ofSeconds(40)).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertEquals(List.of(), online(teacher, id),
              "Bob went offline on A's dashboard when his stream on B ended"));
    }
  }

  private static List<String> online(Client teacher, String classId) {
    List<String> names = new ArrayList<>();
    for (JsonNode s : json(teacher.get("/api/teach/classes/" + classId)).get("students")) {
      if (s.get("online").asBoolean()) names.add(s.get("nickname").asText());
    }
    return names;
  }

  @Test
  void a_push_a_reveal_and_an_answer_on_one_node_reach_the_streams_of_both() throws Exception {
    Client teacher = Client.instructor(a, SECRET);
    JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Fan-out\"}"));
    String id = room.get("id").asText();
    Client onA = Client.student(a, room.get("code").asText(), "Ada");
    Client onB = Client.student(b, room.get("code").asText(), "Bob");
    try (var dash = new ClassroomLiveTest.Stream(a, teacher, "/api/teach/classes/" + id + "/stream");
         var streamA = new ClassroomLiveTest.Stream(a, onA, "/api/classes/" + id + "/stream");
         var streamB = new ClassroomLiveTest.Stream(b, onB, "/api/classes/" + id + "/stream")) {
      streamA.next("idle", "Waiting");
      streamB.next("idle", "Waiting");
      String question = json(teacher.get("/api/teach/classes/" + id + "/questions")).get(0).get("id").asText();
      String round = teacher.pushRound(id, question);
      streamA.next("question", round);
      streamB.next("question", round);

      assertEquals(200, onB.sendAnswer(id, newId(), round, 0).statusCode());
      dash.next("live", "1 of 2"); // the instructor watching on A sees the answer B took

      assertEquals(200, teacher.on(b).live(id, "reveal", "{}").statusCode());
      assertTrue(streamA.next("reveal", round).get("html").asText().contains("You did not answer"),
          "Ada's card, rendered by A");
      JsonNode bobs = streamB.next("reveal", round);
      assertTrue(!bobs.get("html").asText().contains("You did not answer"), "Bob's card marks his answer: " + bobs);

      HttpResponse<String> held = teacher.on(b).put("/api/teach/classes/" + id + "/holds", "{\"held\":[]}");
      assertEquals(200, held.statusCode(), held.body());
      assertEquals(200, teacher.on(b).live(id, "end", "{}").statusCode());
      streamA.next("idle", "Waiting");
      streamB.next("idle", "Waiting");
    }
  }
}
