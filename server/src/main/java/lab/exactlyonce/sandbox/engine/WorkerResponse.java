package lab.exactlyonce.sandbox.engine;

/**
 * A worker's answer to the request with the same id: one JSON line on the worker's standard output.
 * {@code retiring}: the worker exits right after this answer (the run left it unfit for other runs), so the server
 * must not give it another run.
 */
public record WorkerResponse(long id, RunResult result, boolean retiring) {
  /** An answer after which the worker carries on. */
  public WorkerResponse(long id, RunResult result) {
    this(id, result, false);
  }
}
