package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.sandbox.engine.Diagnostic;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a check leaves in the learner's history: the verdicts as seen, always small enough to store. */
class CheckLogTest {

  @Test
  void a_check_is_stored_as_answered_without_the_programs_output() {
    CheckResult result = new CheckResult(Outcome.OK, false,
        List.of(new ScenarioVerdict("no crash", true, List.of()),
            new ScenarioVerdict("crash after o4", false, List.of("duplicate write of o3 after replay from offset 2"))),
        "my debug output\n", "", List.of(), 41);
    ObjectNode stored = CheckLog.summary(result);
    assertEquals("{\"status\":\"ok\",\"passed\":false,\"scenarios\":[{\"name\":\"no crash\",\"passed\":true,\"verdicts\":[]},"
        + "{\"name\":\"crash after o4\",\"passed\":false,\"verdicts\":[\"duplicate write of o3 after replay from offset 2\"]}],"
        + "\"diagnostics\":[],\"elapsedMs\":41}", stored.toString());
  }

  @Test
  void texts_quoting_the_learner_are_cut_and_a_huge_result_still_fits_the_column_with_its_outcome() {
    String huge = "x".repeat(100_000);
    List<ScenarioVerdict> scenarios = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      scenarios.add(new ScenarioVerdict("scenario " + i, false, Collections.nCopies(10, "the write step failed: " + huge)));
    }
    CheckResult result = new CheckResult(Outcome.OK, false, scenarios, "", "",
        List.of(new Diagnostic(3, 1, huge), new Diagnostic(4, 1, huge)), 900);
    ObjectNode stored = CheckLog.summary(result);
    assertTrue(stored.toString().length() <= CheckLog.MAX_RESULT_CHARS, "stored " + stored.toString().length() + " chars");
    assertEquals("ok", stored.get("status").asText());
    assertFalse(stored.get("passed").asBoolean());
    assertEquals(40, stored.get("scenarios").size(), "every scenario keeps its name and outcome");
    assertEquals("scenario 39", stored.get("scenarios").get(39).get("name").asText());
    JsonNode diagnostic = stored.get("diagnostics").get(0);
    assertEquals(CheckLog.MAX_TEXT, diagnostic.get("message").asText().length());
    assertTrue(diagnostic.get("message").asText().endsWith("x\u2026"));
  }

  @Test
  void a_few_long_verdicts_are_cut_but_kept() {
    CheckResult result = new CheckResult(Outcome.OK, false,
        List.of(new ScenarioVerdict("no failures", false, List.of("the payment step failed: " + "y".repeat(2_000)))),
        "", "", List.of(), 12);
    String verdict = CheckLog.summary(result).get("scenarios").get(0).get("verdicts").get(0).asText();
    assertEquals(CheckLog.MAX_TEXT, verdict.length());
    assertTrue(verdict.startsWith("the payment step failed: yyy"));
  }
}
