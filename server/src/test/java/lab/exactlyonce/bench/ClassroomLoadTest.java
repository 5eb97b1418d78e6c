package lab.exactlyonce.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load program at a small N: it runs end to end and its exactly-once check holds (not a timing test). */
@Tag("sandbox")
class ClassroomLoadTest {

  @Test
  void ten_students_answer_three_pushed_questions_and_every_answer_is_on_the_csv_exactly_once() throws Exception {
    var log = new ByteArrayOutputStream();
    ClassroomLoad.Options options = new ClassroomLoad.Options(10, Optional.empty(), Optional.empty(), 3, 200, 0.5,
        "exactly-once", 0, 1, Optional.empty(), 0);
    ClassroomLoad.Result result = ClassroomLoad.run(options, new PrintStream(log, true, StandardCharsets.UTF_8));
    String report = log.toString(StandardCharsets.UTF_8) + "\n" + result.table() + "\n" + result;
    assertEquals(10, result.connected(), report);
    assertEquals(0, result.missedQuestions(), report);
    assertEquals(30, result.answersSent(), report);
    assertEquals(30, result.answersAcknowledged(), report);
    assertTrue(result.duplicateResends() > 0, "the run must include deliberate resends: " + report);
    assertEquals(0, result.resendsAnsweredDifferently(), report);
    assertEquals(0, result.lost(), report);
    assertEquals(0, result.doubled(), report);
    assertEquals(0, result.unexpected(), report);
    assertEquals(30, result.pushToReceive().count(), report);
    assertTrue(result.ok(), report);
    assertTrue(result.table().startsWith("| students | live streams | questions | push→receive p50 | p99 |"), result.table());
    assertTrue(result.table().contains("\n| 10 | 10 | 3 | "), result.table());
  }

  @Test
  void student_addresses_are_distinct_loopback_addresses() {
    assertEquals("127.0.1.1", ClassroomLoad.address(0));
    assertEquals("127.0.1.250", ClassroomLoad.address(249));
    assertEquals("127.0.2.1", ClassroomLoad.address(250));
  }
}
