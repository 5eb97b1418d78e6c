package lab.exactlyonce.sandbox.confinement;

import java.util.List;

/**
 * What the start-up self-check found: the level the workers run at, the launcher that reached it, a line about how
 * (for logs, {@code /healthz} and {@code /metrics}), and below hardened what is missing for it and the one step on
 * this host that adds it (for the instructor's pages).
 */
public record ConfinementReport(ConfinementLevel level, String launcher, String details, List<String> missing,
                                String nextStep) {
  public ConfinementReport {
    missing = List.copyOf(missing);
  }

  public ConfinementReport(ConfinementLevel level, String launcher, String details) {
    this(level, launcher, details, List.of(), "");
  }

  @Override
  public String toString() {
    return "confinement: " + level.id() + " (" + launcher + "); " + details;
  }
}
