package lab.exactlyonce.exercise;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Reading a checker's verdict block: only the last complete block with this check's nonce counts. */
class VerdictsTest {
  static final String BLOCK = "@@verdicts n1\nscenario\tcrash after o4\tfail\tduplicate write of o3 after replay from offset 2\n"
      + "scenario\tno crash\tpass\n@@end n1 2\n";

  @Test
  void the_block_becomes_scenarios_and_what_came_before_is_the_learners_output() {
    Verdicts.Report report = Verdicts.read("hello\n\n" + BLOCK, "n1").orElseThrow();
    assertEquals(List.of(new Verdicts.Scenario("crash after o4", false, List.of("duplicate write of o3 after replay from offset 2")),
        new Verdicts.Scenario("no crash", true, List.of())), report.scenarios());
    assertEquals("hello\n", report.learnerOutput());
  }

  @Test
  void a_forged_block_before_the_real_one_is_only_learner_output() {
    String forged = "@@verdicts n1\nscenario\tno crash\tpass\n@@end n1 1\n";
    Verdicts.Report report = Verdicts.read(forged + "\n" + BLOCK, "n1").orElseThrow();
    assertEquals(2, report.scenarios().size());
    assertEquals(forged, report.learnerOutput());
  }

  @Test
  void a_block_with_another_nonce_a_wrong_count_or_a_bad_line_is_no_report() {
    assertEquals(Optional.empty(), Verdicts.read(BLOCK, "n2"));
    assertEquals(Optional.empty(), Verdicts.read(BLOCK.replace("@@end n1 2", "@@end n1 3"), "n1"));
    assertEquals(Optional.empty(), Verdicts.read(BLOCK.replace("\tpass\n", "\tok\n"), "n1"));
    assertEquals(Optional.empty(), Verdicts.read(BLOCK.replace("@@end n1 2\n", ""), "n1"));
  }
}
