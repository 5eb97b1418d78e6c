package lab.exactlyonce.sandbox.engine;

import java.util.List;

/** One scenario a checker ran: its name and the problems it found (none: it passed). */
public record ScenarioVerdict(String name, boolean passed, List<String> verdicts) {
  public ScenarioVerdict {
    if (name == null) throw new IllegalArgumentException("a scenario needs a name");
    verdicts = List.copyOf(verdicts);
    if (passed && !verdicts.isEmpty()) throw new IllegalArgumentException("a scenario with verdicts did not pass");
  }
}
