package lab.exactlyonce.exercise;

import lab.exactlyonce.Race;
import lab.exactlyonce.TestClock;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Checks of one attempt recorded at once (a resent Check, a reused attempt id with other code): the attempt id is
 * the event id, so one check is stored; the same code gets it back, other code is a conflict. Runs on the test
 * database (H2, or PostgreSQL with {@code -Deolab.test.jdbc-url}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CheckRaceTest {
  private final Database db = TestDatabase.open();
  private final CheckLog checks = new CheckLog(new EventLog(db, new TestClock()));
  private final Exercise exercise = ExerciseCatalog.load(Path.of("snippets")).all().get(0);

  @AfterAll
  void close() {
    db.close();
  }

  static Stream<Arguments> races() {
    return Stream.of(
        arguments("16 sends of one attempt with one source", 16, 1),
        arguments("12 sends of one attempt with twelve sources", 12, 12),
        arguments("32 sends of one attempt with two sources", 32, 2));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("races")
  void one_check_per_attempt_is_stored(String race, int sends, int sources) throws Exception {
    String learner = TestDatabase.learner(db);
    String attempt = UUID.randomUUID().toString();
    List<EventLog.Outcome> outcomes = Race.run(sends, i -> {
      CheckResult result = new CheckResult(Outcome.OK, i % 2 == 0, List.of(new ScenarioVerdict("no crash", i % 2 == 0, List.of())),
          "", "", List.of(), i);
      return checks.record(learner, exercise, attempt, "class Sink { /* " + (i % sources) + " */ }", result);
    });

    long rows = db.inTransaction(c -> Sql.optional(c, "SELECT COUNT(*) FROM events WHERE learner_id = ?",
        rs -> rs.getLong(1), learner)).orElseThrow();
    assertEquals(1, rows, race);
    EventLog.Outcome winner = outcomes.stream().filter(o -> o instanceof EventLog.Outcome.Stored).findFirst().orElseThrow();
    assertEquals(1, outcomes.stream().filter(o -> o instanceof EventLog.Outcome.Stored).count(), race);
    for (int i = 0; i < sends; i++) {
      EventLog.Outcome o = outcomes.get(i);
      if (o == winner) continue;
      assertEquals(winner.event().result(), o.event().result(), "the stored verdicts are the answer");
      boolean sameSource = CheckLog.event(exercise, attempt, "class Sink { /* " + (i % sources) + " */ }").data()
          .equals(winner.event().data());
      Class<?> expected = sameSource ? EventLog.Outcome.Replayed.class : EventLog.Outcome.Conflict.class;
      assertEquals(expected, o.getClass(), race);
    }
  }
}
