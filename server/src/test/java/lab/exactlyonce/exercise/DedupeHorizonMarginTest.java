package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import lab.exactlyonce.sandbox.engine.SnippetRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The dedupe exercise's task allows a safety margin: any TTL from the retry horizon (300 s) up to twice it passes the
 * checker, and one outside that range fails with the verdict that names why. Each row is the reference solution with
 * only its TTL changed.
 */
class DedupeHorizonMarginTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();
  private static final Exercise EXERCISE = ExerciseCatalog.load(Path.of("snippets")).find("dedupe-horizon").orElseThrow();
  private static final String TTL_LINE = "    static final long TTL_SECONDS = RETRY_HORIZON_SECONDS + SAFETY_MARGIN_SECONDS;";

  static Stream<Arguments> ttls() {
    String late = "100 events at t=0..99, then one at t=699, when even the longest allowed TTL is over";
    return Stream.of(
        arguments("the horizon itself", "RETRY_HORIZON_SECONDS", List.of()),
        arguments("the horizon plus one second", "RETRY_HORIZON_SECONDS + 1", List.of()),
        arguments("the horizon plus a margin of 30 s", "RETRY_HORIZON_SECONDS + 30", List.of()),
        arguments("twice the horizon", "2 * RETRY_HORIZON_SECONDS", List.of()),
        arguments("one second short of the horizon", "RETRY_HORIZON_SECONDS - 1",
            List.of("e1 retried 299 s after its first send, the last second a retry can come | duplicate of e1 accepted"
                    + " at t=299 (a retry 299 s after the first send)",
                "crash after e2, then a retry of e1 at t=299, the last second a retry can come | duplicate of e1 accepted"
                    + " at t=299 (a retry 299 s after the first send) after the crash")),
        arguments("one second past twice the horizon", "2 * RETRY_HORIZON_SECONDS + 1",
            List.of(late + " | the seen-set still holds 2 ids at t=699: it keeps ids for more than twice their retry horizon")),
        arguments("three horizons", "3 * RETRY_HORIZON_SECONDS",
            List.of(late + " | the seen-set still holds 101 ids at t=699: it keeps ids for more than twice their retry horizon")));
  }

  @ParameterizedTest(name = "TTL = {0}")
  @MethodSource("ttls")
  void a_ttl_from_the_horizon_to_twice_the_horizon_passes_and_no_other_does(String name, String ttl, List<String> failures) {
    String solution = EXERCISE.solution();
    assertTrue(solution.contains(TTL_LINE), "the reference solution sets its TTL on one line: " + TTL_LINE);
    RunResult run = RUNNER.run(solution.replace(TTL_LINE, "    static final long TTL_SECONDS = " + ttl + ";"),
        SandboxLimits.defaults(), EXERCISE.checkSpec());
    assertEquals(Outcome.OK, run.status(), run.toString());
    List<String> failed = run.check().scenarios().stream().filter(s -> !s.passed())
        .flatMap(s -> s.verdicts().stream().map(v -> s.name() + " | " + v)).toList();
    assertEquals(failures, failed, name);
    assertEquals(failures.isEmpty(), run.check().scenarios().stream().allMatch(ScenarioVerdict::passed), name);
  }
}
