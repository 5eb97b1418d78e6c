package lab.exactlyonce.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The class-period soak, short: a class behind one address with sleeping phones, a run burst and a student who floods
 * runs, shares and scores. Its checks hold (nothing refused, lost or doubled; the flood throttled); its timings are
 * docs/performance.md's business, measured on an otherwise idle machine, not this test's.
 */
@Tag("sandbox")
class ClassPeriodTest {

  @Test
  @Timeout(180)
  void a_short_period_behind_one_address_refuses_loses_and_doubles_nothing_and_throttles_the_flood() throws Exception {
    var log = new ByteArrayOutputStream();
    ClassPeriod.Result result = ClassPeriod.run(new ClassPeriod.Options(24, 0.4, 3, 6, 0.25),
        new PrintStream(log, true, StandardCharsets.UTF_8));
    String report = log.toString(StandardCharsets.UTF_8) + "\n" + result.report() + "\n" + result.problems();
    assertEquals(0, result.missedByAwake(), report);
    assertEquals(0, result.lost(), report);
    assertEquals(0, result.doubled(), report);
    assertTrue(result.answersAcknowledged() > 0 && result.answersAcknowledged() == result.answersSent(), report);
    assertTrue(result.wakes() > 0, "phones slept and woke: " + report);
    assertEquals(24, result.runBurst().count(), report);
    assertTrue(result.classStatuses().keySet().stream().allMatch(status -> status < 300),
        "nothing the class asked for was refused: " + report);
    assertTrue(result.hostileStatuses().getOrDefault(429, 0) > 0, "the flood was throttled: " + report);
    assertEquals(3, result.samples().size(), report);
    assertTrue(result.ok(), report);
  }
}
