package lab.exactlyonce.quiz;

import lab.exactlyonce.sandbox.engine.Outcome;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The fix-the-sink exercises as the quiz needs them: each lesson's starters, and what an exercise's own checker
 * reports for its starter. The exercise feature implements it; the app wires it in.
 */
public interface StarterChecks {
  /**
   * An exercise's starter.
   *
   * @param summary what the exercise asks the learner to fix
   * @param source the starter as the learner gets it (no header lines)
   * @param checker the checker's text: a new version of it is a new run
   */
  record Starter(String id, String title, String summary, String source, String checker) {}

  /** A scenario the starter failed, with the checker's verdicts in its order. */
  record Failure(String scenario, List<String> verdicts) {
    public Failure {
      verdicts = List.copyOf(verdicts);
    }
  }

  /**
   * What a check found: {@code OK} with the failed scenarios in the checker's order (none when every scenario
   * passed); otherwise the run's outcome and a line saying what went wrong.
   */
  record Report(Outcome status, List<Failure> failures, String problem) {
    public Report {
      failures = List.copyOf(failures);
    }
  }

  /** The lesson's exercises in a fixed order; empty when it has none. */
  List<Starter> starters(String lesson);

  /** Runs the starter through its checker in the sandbox, waiting in its queue as {@code clientKey}. */
  CompletableFuture<Report> check(String clientKey, Starter starter);
}
