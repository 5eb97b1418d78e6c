package lab.exactlyonce.exercise;

import lab.exactlyonce.quiz.StarterChecks;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The exercises' starters for the quiz's verdict questions, each checked by its own checker exactly as a learner's
 * code is ({@link ExerciseChecks}).
 */
public final class ExerciseStarters implements StarterChecks {
  private final ExerciseCatalog catalog;
  private final ExerciseChecks checks;

  public ExerciseStarters(ExerciseCatalog catalog, CodeRunner sandbox) {
    this.catalog = catalog;
    this.checks = new ExerciseChecks(sandbox);
  }

  @Override
  public List<Starter> starters(String lesson) {
    return catalog.all().stream().filter(e -> e.lesson().equals(lesson))
        .map(e -> new Starter(e.id(), e.title(), e.description(), e.source(), e.provided() + "\n" + e.harness())).toList();
  }

  @Override
  public CompletableFuture<Report> check(String clientKey, Starter starter) {
    Exercise exercise = catalog.find(starter.id())
        .orElseThrow(() -> new IllegalArgumentException("no exercise '" + starter.id() + "'"));
    return checks.check(clientKey, exercise, exercise.source()).thenApply(ExerciseStarters::report);
  }

  static Report report(CheckResult result) {
    if (result.status() != Outcome.OK) {
      String problem = !result.stderr().isBlank() ? result.stderr() : result.diagnostics().toString();
      return new Report(result.status(), List.of(), problem.lines().findFirst().orElse(""));
    }
    if (result.scenarios().isEmpty()) {
      return new Report(Outcome.RUNTIME_ERROR, List.of(), "the checker reported no scenarios: " + result.diagnostics());
    }
    List<Failure> failures = new ArrayList<>();
    for (ScenarioVerdict s : result.scenarios()) if (!s.passed()) failures.add(new Failure(s.name(), s.verdicts()));
    return new Report(Outcome.OK, failures, "");
  }
}
