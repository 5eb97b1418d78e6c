package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A database written by an earlier version, holding the doubles its check-then-insert let through, migrated by this
 * one: the first answer of each fact stays where it was, each later one is set aside unchanged, nothing is deleted,
 * and from then on the key refuses a double. (A fresh H2 database: the migration has to start from an old schema.)
 */
class UniqueFactsMigrationTest {
  @TempDir Path dir;

  private static void event(Connection c, String learner, String id, long seq, String data) throws Exception {
    Sql.update(c, "INSERT INTO events (learner_id, event_id, seq, type, lesson, item, data, result, recorded_at)"
        + " VALUES (?, ?, ?, ?, 'exactly-once', 'q1', ?, '{}', ?)", learner, id, seq,
        data.contains("\"session\"") ? "quiz.answer" : "section.read", data, Instant.ofEpochSecond(1_700_000_000L + seq));
  }

  @Test
  void existing_doubles_are_set_aside_and_the_first_answer_keeps_its_place() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("old");
    Flyway.configure().dataSource(url, "", "").locations("classpath:db/migration").target("20").load().migrate();
    String quiz = "{\"session\":\"s1\",\"question\":\"exactly-once/q1\",\"choice\":%d}";
    String live = "{\"session\":\"live\",\"question\":\"exactly-once/q1\",\"choice\":%d,\"round\":\"r1\",\"class\":\"k\"}";
    try (Connection c = DriverManager.getConnection(url, "", "")) {
      Sql.update(c, "INSERT INTO learners (id, created_at) VALUES ('ada', ?)", Instant.EPOCH);
      Sql.update(c, "INSERT INTO learners (id, created_at) VALUES ('ben', ?)", Instant.EPOCH);
      event(c, "ada", "a1", 1, quiz.formatted(1));
      event(c, "ada", "a2", 2, quiz.formatted(0)); // the same question of the same session again
      event(c, "ada", "a3", 3, quiz.formatted(1));
      event(c, "ben", "b1", 4, quiz.formatted(2)); // another learner: another fact
      event(c, "ada", "a4", 5, live.formatted(0));
      event(c, "ada", "a5", 6, live.formatted(1)); // a second answer to live round r1
      event(c, "ben", "b2", 7, live.formatted(1));
      event(c, "ada", "a6", 8, "{}");
      event(c, "ada", "a7", 9, "{}"); // events without a fact may repeat
      event(c, "ada", "a8", 10, "not json"); // unreadable data has no fact and stays
    }

    try (Database db = Database.open(url, "", "")) {
      assertEquals(List.of("a1", "a4", "a6", "a7", "a8", "b1", "b2"), ids(db, "SELECT event_id FROM events ORDER BY event_id"));
      assertEquals(List.of("a2", "a3", "a5"), ids(db, "SELECT event_id FROM events_set_aside ORDER BY event_id"));
      assertEquals(List.of("live.answer/r1/ada", "quiz.answer/ada/s1/exactly-once/q1"),
          ids(db, "SELECT fact FROM events WHERE fact IS NOT NULL AND learner_id = 'ada' ORDER BY fact"));
      assertEquals(List.of(quiz.formatted(0)), ids(db, "SELECT data FROM events_set_aside WHERE event_id = 'a2'"), "set aside unchanged");

      var log = new EventLog(db, new TestClock());
      var data = JsonNodeFactory.instance.objectNode()
          .put("session", "s1").put("question", "exactly-once/q1").put("choice", 3);
      EventLog.Outcome again = log.record("ada", new NewEvent(UUID.randomUUID().toString(), "quiz.answer",
          "exactly-once", "q1", data), Fact.quizAnswer("ada", "s1", "exactly-once/q1"), e -> null);
      assertEquals(EventLog.Outcome.Taken.class, again.getClass(), "the migrated key refuses a new double");
      assertEquals("a1", again.event().id());
      var liveData = JsonNodeFactory.instance.objectNode()
          .put("session", "live").put("question", "exactly-once/q1").put("choice", 1).put("round", "r1").put("class", "k");
      EventLog.Outcome liveAgain = log.record("ada", new NewEvent(UUID.randomUUID().toString(), "quiz.answer",
          "exactly-once", "q1", liveData), Fact.liveAnswer("r1", "ada"), e -> null);
      assertEquals(EventLog.Outcome.Taken.class, liveAgain.getClass(), "the live key the migration wrote is the one the classroom uses");
      assertEquals("a4", liveAgain.event().id());

      Object exported = db.inTransaction(c -> log.setAside().export(c, "ada"));
      assertEquals("[a2, a3, a5]", ((List<?>) exported).stream().map(r -> ((Map<?, ?>) r).get("id")).toList().toString(),
          "what was set aside is still part of the learner's export");

      db.inTransaction(c -> Sql.update(c, "DELETE FROM learners WHERE id = 'ada'"));
      assertEquals(List.of(), ids(db, "SELECT event_id FROM events_set_aside"), "forgetting a learner forgets what was set aside");
    }
  }

  private static List<String> ids(Database db, String sql) {
    return db.inTransaction(c -> Sql.list(c, sql, rs -> rs.getString(1)));
  }
}
