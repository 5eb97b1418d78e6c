package lab.exactlyonce.sandbox.engine;

/**
 * A worker's answer to the request with the same id: one JSON line on the worker's standard output.
 * {@code retiring}: the worker exits right after this answer (the run left it unfit for other runs), so the server
 * must not give it another run. {@code workerNanos}: the worker's own time for the request, from reading its line to
 * having the answer.
 */
public record WorkerResponse(long id, RunResult result, boolean retiring, long workerNanos) {
  /** An answer after which the worker carries on, its time not yet measured. */
  public WorkerResponse(long id, RunResult result) {
    this(id, result, false, 0);
  }

  /** The same answer, marked as the worker's last. */
  public WorkerResponse asLast() {
    return new WorkerResponse(id, result, true, workerNanos);
  }

  /** The same answer with the worker's own time for it. */
  public WorkerResponse took(long nanos) {
    return new WorkerResponse(id, result, retiring, nanos);
  }
}
