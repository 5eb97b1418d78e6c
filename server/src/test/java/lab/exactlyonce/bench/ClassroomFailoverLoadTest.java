package lab.exactlyonce.bench;

import lab.exactlyonce.TestPostgres;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load program on two app processes sharing one PostgreSQL database, students spread over both by the failover
 * proxy, one node killed with SIGKILL right after a push: every student still gets that question and the next ones
 * (those of the dead node through the other), and every answer is on the CSV exactly once. Not a timing test: the
 * docs/multi-node.md has the figures.
 *
 * <p>Its time is the load program's work (two app JVMs started, 300 students through four questions), so it grows with
 * whatever else the host runs: 50 to 66 s beside the suite's other classes in the directory order, past the default
 * 90 s hang guard when a random order ran it beside the heaviest browser classes. The guard here is the load's own.
 */
@Tag("sandbox")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClassroomFailoverLoadTest {

  @Test
  void a_node_killed_mid_question_loses_no_student_and_no_answer() throws Exception {
    try (TestPostgres db = TestPostgres.create()) {
      var log = new ByteArrayOutputStream();
      ClassroomLoad.Options options = ClassroomLoad.Options.defaults(300).onNodes(2, db.url(), 2);
      options = new ClassroomLoad.Options(options.students(), options.url(), options.instructorSecret(), 3, 200, 0.2,
          options.lesson(), 1, options.nodes(), options.jdbcUrl(), options.killAfter());
      ClassroomLoad.Result result = ClassroomLoad.onNodes(options,
          Map.of("JDBC_USER", db.user(), "JDBC_PASSWORD", db.password()),
          new PrintStream(log, true, StandardCharsets.UTF_8));
      String report = log.toString(StandardCharsets.UTF_8) + "\n" + result.table() + "\n" + result;
      System.out.println(report);   // the round-by-round figures, in the class's output file
      assertTrue(report.contains("killed the node on port "), report);
      assertEquals(300, result.connected(), report);
      assertTrue(result.reconnects() > 0, "the dead node's students reconnected to the other: " + report);
      assertEquals(0, result.missedQuestions(), report);
      assertEquals(4 * 300, result.answersSent(), report);
      assertEquals(result.answersSent(), result.answersAcknowledged(), report);
      assertEquals(0, result.lost(), report);
      assertEquals(0, result.doubled(), report);
      assertEquals(0, result.unexpected(), report);
      assertEquals(0, result.resendsAnsweredDifferently(), report);
      assertTrue(result.ok(), report);
    }
  }
}
