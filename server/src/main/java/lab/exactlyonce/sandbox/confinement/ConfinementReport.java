package lab.exactlyonce.sandbox.confinement;

/**
 * What the start-up self-check found: the level the workers run at, the launcher that reached it, and a line about
 * how (for logs, {@code /healthz} and {@code /metrics}).
 */
public record ConfinementReport(ConfinementLevel level, String launcher, String details) {
  @Override
  public String toString() {
    return "confinement: " + level.id() + " (" + launcher + "); " + details;
  }
}
