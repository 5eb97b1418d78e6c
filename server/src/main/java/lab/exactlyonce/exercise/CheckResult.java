package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.Diagnostic;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;

import java.util.List;

/**
 * The answer to {@code POST /api/exercises/{id}/check}: the run's status as in {@code /api/run}, whether every
 * scenario passed, each scenario's verdicts as the checker reported them, and the learner's own output.
 */
record CheckResult(Outcome status, boolean passed, List<ScenarioVerdict> scenarios, String stdout, String stderr,
                   List<Diagnostic> diagnostics, long elapsedMs) {
  CheckResult {
    scenarios = List.copyOf(scenarios);
    diagnostics = List.copyOf(diagnostics);
  }
}
