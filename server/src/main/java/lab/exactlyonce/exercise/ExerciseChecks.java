package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.Diagnostic;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Checks a learner's completed exercise: appends the exercise's trusted checker (with a fresh nonce) to the
 * learner's source, runs the whole in the sandbox, and turns the checker's verdict block into a {@link CheckResult}.
 * Free of HTTP.
 */
final class ExerciseChecks {
  private static final Logger log = LoggerFactory.getLogger(ExerciseChecks.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Runs a source for a client; the app hands in the sandbox. */
  interface Runner {
    CompletableFuture<RunResult> run(String clientKey, String source);
  }

  private final Runner runner;

  ExerciseChecks(Runner runner) {
    this.runner = runner;
  }

  /** The source the sandbox runs: the learner's lines first (their line numbers stay), then the checker. */
  static String combined(String learnerSource, Exercise exercise, String nonce) {
    return learnerSource + "\n" + exercise.harness().replace(Verdicts.NONCE_PLACEHOLDER, nonce);
  }

  CompletableFuture<CheckResult> check(String clientKey, Exercise exercise, String learnerSource) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    String nonce = HexFormat.of().formatHex(bytes);
    int learnerLines = learnerSource.split("\r\n|\r|\n", -1).length;
    return runner.run(clientKey, combined(learnerSource, exercise, nonce))
        .thenApply(run -> result(exercise, run, nonce, learnerLines));
  }

  static CheckResult result(Exercise exercise, RunResult run, String nonce, int learnerLines) {
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (Diagnostic d : run.diagnostics()) {
      diagnostics.add(d.line() > learnerLines
          ? new Diagnostic(0, 0, "in the checker, which calls your code: " + d.message())
          : d);
    }
    Optional<Verdicts.Report> report = Verdicts.read(run.stdout(), nonce);
    String stdout = report.map(Verdicts.Report::learnerOutput).orElse(run.stdout());
    if (run.status() != Outcome.OK) {
      return new CheckResult(run.status(), false, List.of(), stdout, run.stderr(), diagnostics, run.elapsedMs());
    }
    if (report.isEmpty()) {
      // The run ended normally without the checker's report: the learner's own main ran instead of the checker's.
      log.warn("exercise {}: a check ran OK without the checker's verdicts", exercise.id());
      diagnostics.add(new Diagnostic(0, 0, "the checker never ran: your code has its own public class with a main "
          + "method, which ran instead; remove that main method and check again"));
      return new CheckResult(Outcome.OK, false, List.of(), stdout, run.stderr(), diagnostics, run.elapsedMs());
    }
    List<Verdicts.Scenario> scenarios = report.get().scenarios();
    boolean passed = !scenarios.isEmpty() && scenarios.stream().allMatch(Verdicts.Scenario::passed);
    return new CheckResult(Outcome.OK, passed, scenarios, stdout, run.stderr(), diagnostics, run.elapsedMs());
  }
}
