package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.engine.CheckSpec;

import java.util.Optional;

/**
 * One piece of learners' Java for the sandbox: whose turn in the fair queue it takes, the source, and, for an
 * exercise check, the exercise's provided code and checker.
 *
 * @param clientKey who waits in the queue for it: the remote address for a learner's request, or a feature's own key
 *     (the quiz's runs share one turn)
 * @param source the learner's source; for a check, compiled on its own, apart from the exercise's trusted code
 * @param check the exercise's checker for a check; empty for a plain run
 */
public record RunRequest(String clientKey, String source, Optional<CheckSpec> check) {
  public RunRequest {
    if (clientKey == null || clientKey.isBlank()) throw new IllegalArgumentException("a run needs a client key");
    if (source == null) throw new IllegalArgumentException("a run needs a source");
    if (check == null) throw new IllegalArgumentException("a run's check is empty, not null");
  }

  /** A plain run: what the source prints. */
  public static RunRequest run(String clientKey, String source) {
    return new RunRequest(clientKey, source, Optional.empty());
  }

  /** An exercise check of {@code learnerSource}: the checker's verdicts come back in the result. */
  public static RunRequest check(String clientKey, String learnerSource, CheckSpec check) {
    if (check == null) throw new IllegalArgumentException("a check needs its checker");
    return new RunRequest(clientKey, learnerSource, Optional.of(check));
  }
}
