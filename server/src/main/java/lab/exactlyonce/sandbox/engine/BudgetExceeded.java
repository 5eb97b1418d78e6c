package lab.exactlyonce.sandbox.engine;

/**
 * Thrown into the learner's code when a run is over one of its budgets. Learner code cannot name it (it is not
 * on the allowlist) and cannot keep it caught: every exception handler entry rethrows it, and once thrown the
 * budget is spent, so every later step throws it again.
 */
final class BudgetExceeded extends Error {
  private static final long serialVersionUID = 1L;

  private final Outcome outcome;

  BudgetExceeded(Outcome outcome, String message) {
    this(outcome, message, true);
  }

  BudgetExceeded(Outcome outcome, String message, boolean withStackTrace) {
    super(message, null, false, withStackTrace);
    this.outcome = outcome;
  }

  Outcome outcome() {
    return outcome;
  }
}
