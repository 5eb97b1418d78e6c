package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.TestPostgres;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile rows for the messages app nodes send each other through PostgreSQL: any role that may connect to the
 * database may {@code NOTIFY} and {@code LISTEN} on the nodes' channel (neither needs a privilege), so each row is such
 * a role, granted nothing, trying to change what students see on two nodes. Each forged message is followed by a real
 * change; a stream that gets the real one has handled everything sent before it (one channel delivers in commit
 * order), so "nothing seen before it" means the forged message was refused, not late.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedLiveMessagesTest {
  private static final String CHANNEL = "eolab_classroom";

  private TestPostgres db;
  private TestClock clock;
  private TestServer a;
  private TestServer b;
  private Stranger stranger;
  private AutoCloseable strangerRole;

  @BeforeAll
  void start() throws SQLException {
    db = TestPostgres.create();
    Config first = Client.config().withStore(db.store());
    clock = TestClock.of(first);
    a = TestServer.start(first);
    b = TestServer.start(Client.config().withStore(db.store()).withClock(clock));
    TestPostgres.Role role = db.roleWithNoGrants();
    strangerRole = role;
    stranger = new Stranger(role.connect());
  }

  @AfterAll
  void stop() throws Exception {
    if (b != null) b.close();
    if (a != null) a.close();
    if (stranger != null) stranger.close();
    if (strangerRole != null) strangerRole.close();
    if (db != null) db.close();
  }

  /** A class on both nodes with a round open and one student streaming on each. */
  private final class OpenRound implements AutoCloseable {
    final Client teacher = Client.instructor(a, SECRET);
    final String id;
    final String round;
    final ClassroomLiveTest.Stream onA;
    final ClassroomLiveTest.Stream onB;

    OpenRound(String name) {
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"" + name + "\"}"));
      id = room.get("id").asText();
      onA = new ClassroomLiveTest.Stream(a, Client.student(a, room.get("code").asText(), "Ada"), "/api/classes/" + id + "/stream");
      onB = new ClassroomLiveTest.Stream(b, Client.student(b, room.get("code").asText(), "Bob"), "/api/classes/" + id + "/stream");
      onA.next("idle", "Waiting");
      onB.next("idle", "Waiting");
      round = teacher.pushRound(id, question(0));
      onA.next("question", round);
      onB.next("question", round);
    }

    String question(int index) {
      return json(teacher.get("/api/teach/classes/" + id + "/questions")).get(index).get("id").asText();
    }

    /** A real change every stream of the class gets; asserts neither stream got an event of {@code kind} before it. */
    void assertNothingBeforeTheNextRealChange(String kind, String why) {
      assertEquals(200, teacher.live(id, "leaderboard", "{\"show\":true}").statusCode());
      for (ClassroomLiveTest.Stream stream : List.of(onA, onB)) {
        List<String[]> before = stream.until("leaderboard", "");
        for (String[] event : before) assertTrue(!event[0].equals(kind), why + ", but a stream got " + event[0] + ": " + event[1]);
      }
    }

    @Override
    public void close() {
      onA.close();
      onB.close();
    }
  }

  @Test
  void a_role_with_no_grants_cannot_read_the_key_live_messages_are_sealed_with() {
    SQLException refused = assertThrows(SQLException.class, () -> stranger.query("SELECT secret FROM signing_keys"));
    assertTrue(refused.getMessage().contains("permission denied"), refused.getMessage());
  }

  @Test
  void an_unsealed_reveal_of_a_round_still_open_shows_no_student_the_answer() throws Exception {
    try (OpenRound open = new OpenRound("Unsealed reveal")) {
      stranger.notify(change("reveal", open.id, open.round));
      open.assertNothingBeforeTheNextRealChange("reveal", "the round is still open");
    }
  }

  @Test
  void a_message_with_a_made_up_seal_is_refused() throws Exception {
    try (OpenRound open = new OpenRound("Made-up seal")) {
      String change = change("reveal", open.id, open.round);
      stranger.notify("1." + clock.millis() + ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA." + change);
      stranger.notify("1." + clock.millis() + "." + "x".repeat(43) + "." + change);
      open.assertNothingBeforeTheNextRealChange("reveal", "the round is still open");
    }
  }

  @Test
  void another_class_round_pushed_into_a_class_reaches_none_of_its_streams() throws Exception {
    try (OpenRound mine = new OpenRound("Mine"); OpenRound theirs = new OpenRound("Theirs")) {
      stranger.notify(change("question", mine.id, theirs.round));
      mine.assertNothingBeforeTheNextRealChange("question", "the other class's round is not this class's");
    }
  }

  @Test
  void a_sealed_message_overheard_and_sent_again_is_refused_at_once_and_later() throws Exception {
    try (OpenRound open = new OpenRound("Replayed")) {
      stranger.listen();
      String second = open.teacher.pushRound(open.id, open.question(1));
      open.onA.next("question", second);
      open.onB.next("question", second);
      String overheard = stranger.heard(open.id, "\"question\"");
      String third = open.teacher.pushRound(open.id, open.question(2));
      open.onA.next("question", third);
      open.onB.next("question", third);

      stranger.notify(overheard);
      open.assertNothingBeforeTheNextRealChange("question", "the round it names is over");
      clock.advance(Duration.ofMinutes(2));
      stranger.notify(overheard);
      open.assertNothingBeforeTheNextRealChange("question", "the overheard message is two minutes old");
    }
  }

  private static String change(String kind, String classId, String arg) {
    return "{\"kind\":\"" + kind + "\",\"classId\":\"" + classId + "\",\"arg\":\"" + arg + "\",\"items\":[],\"node\":\"x\"}";
  }

  /** A connection to the nodes' database as a role granted nothing, the way any local account could connect. */
  private static final class Stranger implements AutoCloseable {
    private final Connection connection;
    private final List<String> overheard = new ArrayList<>();

    Stranger(Connection connection) {
      this.connection = connection;
    }

    void query(String sql) throws SQLException {
      try (Statement s = connection.createStatement()) {
        s.executeQuery(sql).close();
      }
    }

    void notify(String payload) throws SQLException {
      try (PreparedStatement s = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
        s.setString(1, LiveFanout.CHANNEL);
        s.setString(2, payload);
        s.executeQuery().close();
      }
    }

    void listen() throws SQLException {
      try (Statement s = connection.createStatement()) {
        s.execute("LISTEN " + LiveFanout.CHANNEL);
      }
    }

    /** The first message overheard since {@link #listen} that contains every one of {@code parts}. */
    String heard(String... parts) {
      return await("a message containing " + List.of(parts)).atMost(Duration.ofSeconds(10)).until(() -> {
        PGNotification[] got = connection.unwrap(PGConnection.class).getNotifications(100);
        if (got != null) for (PGNotification n : got) overheard.add(n.getParameter());
        return overheard.stream().filter(m -> List.of(parts).stream().allMatch(m::contains)).findFirst().orElse(null);
      }, java.util.Objects::nonNull);
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }
}
