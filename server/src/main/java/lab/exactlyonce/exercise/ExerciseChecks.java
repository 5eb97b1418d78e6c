package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.Diagnostic;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Checks a learner's completed exercise: the sandbox compiles the learner's source on its own, loads the exercise's
 * provided code and checker apart from it, lets the checker drive the learner's classes, and hands back the
 * checker's verdicts over its own channel (never the program's output, which the learner writes). This turns them
 * into a {@link CheckResult}. Free of HTTP.
 */
final class ExerciseChecks {
  private static final Logger log = LoggerFactory.getLogger(ExerciseChecks.class);

  private final CodeRunner sandbox;

  ExerciseChecks(CodeRunner sandbox) {
    this.sandbox = sandbox;
  }

  CompletableFuture<CheckResult> check(String clientKey, Exercise exercise, String learnerSource) {
    return sandbox.submit(RunRequest.check(clientKey, learnerSource, exercise.checkSpec()))
        .thenApply(run -> result(exercise, run));
  }

  static CheckResult result(Exercise exercise, RunResult run) {
    if (run.status() != Outcome.OK) {
      return new CheckResult(run.status(), false, List.of(), run.stdout(), run.stderr(), run.diagnostics(), run.elapsedMs());
    }
    List<ScenarioVerdict> scenarios = run.check() == null ? List.of() : run.check().scenarios();
    if (scenarios.isEmpty()) {
      // The checker is ours: a run through it without a single scenario means the exercise itself is broken.
      log.error("exercise {}: a check ran through without any scenario from the checker", exercise.id());
      return new CheckResult(Outcome.INTERNAL_ERROR, false, List.of(), run.stdout(), run.stderr(),
          List.of(new Diagnostic(0, 0, "internal error: the exercise's checker reported nothing; this is not a problem"
              + " in your code")), run.elapsedMs());
    }
    boolean passed = scenarios.stream().allMatch(ScenarioVerdict::passed);
    return new CheckResult(Outcome.OK, passed, scenarios, run.stdout(), run.stderr(), run.diagnostics(), run.elapsedMs());
  }
}
