package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.Race;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The event log's own guarantee, on the database the tests run against (H2, or PostgreSQL with
 * {@code -Deolab.test.jdbc-url}): events racing to record one fact store one row, whatever their ids and bodies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FactRaceTest {
  private final Database db = TestDatabase.open();
  private final EventLog log = new EventLog(db, new TestClock());

  @AfterAll
  void close() {
    db.close();
  }

  static Stream<Arguments> races() {
    return Stream.of(
        arguments("12 events, each its own id and body", Race.sends(12, i -> i, i -> i)),
        arguments("32 events, each its own id, one body", Race.sends(32, i -> i, i -> 0)),
        arguments("16 sends of one id and body", Race.sends(16, i -> 0, i -> 0)),
        arguments("16 sends of one id, four bodies", Race.sends(16, i -> 0, i -> i % 4)),
        arguments("24 sends: 6 ids, four sends each", Race.sends(24, i -> i / 4, i -> i / 4)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("races")
  void one_event_records_a_fact(String race, List<Race.Send> sends) throws Exception {
    String learner = TestDatabase.learner(db);
    String session = UUID.randomUUID().toString();
    Fact fact = Fact.quizAnswer(learner, session, "exactly-once/q1");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < sends.size(); i++) ids.add(UUID.randomUUID().toString());

    List<EventLog.Outcome> outcomes = Race.run(sends.size(), i -> {
      ObjectNode data = JsonNodeFactory.instance.objectNode().put("session", session).put("choice", sends.get(i).choice());
      return log.record(learner, new NewEvent(ids.get(sends.get(i).id()), "quiz.answer", "exactly-once", "q1", data), fact,
          e -> JsonNodeFactory.instance.objectNode().put("graded", e.data().get("choice").asInt()));
    });

    List<String> rows = db.inTransaction(c -> Sql.list(c, "SELECT event_id FROM events WHERE learner_id = ?",
        rs -> rs.getString(1), learner));
    assertEquals(1, rows.size(), race + ": " + rows);
    long stored = outcomes.stream().filter(o -> o instanceof EventLog.Outcome.Stored).count();
    assertEquals(1, stored, race + ": one insert won");
    RecordedEvent winner = outcomes.stream().filter(o -> o instanceof EventLog.Outcome.Stored).findFirst().orElseThrow().event();
    assertEquals(rows.get(0), winner.id());
    for (int i = 0; i < sends.size(); i++) {
      EventLog.Outcome o = outcomes.get(i);
      assertEquals(winner.id(), o.event().id(), "every outcome names the stored event");
      assertEquals(winner.result(), o.event().result(), "the result was computed for the winner only");
      boolean sameId = ids.get(sends.get(i).id()).equals(winner.id());
      boolean sameBody = sends.get(i).choice() == winner.data().get("choice").asInt();
      if (o instanceof EventLog.Outcome.Stored) continue;
      if (sameId && sameBody) assertInstanceOf(EventLog.Outcome.Replayed.class, o, race);
      else if (sameId) assertInstanceOf(EventLog.Outcome.Conflict.class, o, race);
      else assertInstanceOf(EventLog.Outcome.Taken.class, o, race);
    }
  }
}
