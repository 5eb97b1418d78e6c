package lab.exactlyonce.sandbox.engine;

import java.util.List;

/**
 * What the checker of an exercise reported, through {@link Check} and the worker protocol (never through the run's
 * output, which the learner's code writes): the scenarios in the order it ran them.
 */
public record CheckReport(List<ScenarioVerdict> scenarios) {
  public CheckReport {
    scenarios = List.copyOf(scenarios);
  }
}
