package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;

import java.util.concurrent.CompletableFuture;

/**
 * Where the app's features send learners' Java: the one way into the {@link Sandbox}, and what a test fakes to check a
 * feature without worker JVMs. Free of HTTP.
 */
public interface CodeRunner {
  /**
   * Queues the request fairly among its client's and everyone else's; the result says how the run went (a learner's
   * mistake is an outcome, never an exception).
   *
   * @throws Sandbox.BusyException at once if the client or the whole queue is at its cap
   */
  CompletableFuture<RunResult> submit(RunRequest request);

  /** The budgets of one run; a source over {@link SandboxLimits#maxSourceBytes()} is refused before it queues. */
  SandboxLimits limits();
}
