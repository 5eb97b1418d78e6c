package lab.exactlyonce.sandbox.engine;

/** A worker's answer to the request with the same id: one JSON line on the worker's standard output. */
public record WorkerResponse(long id, RunResult result) {
}
