package lab.exactlyonce.sandbox.engine;

/** One run asked of a worker process: written as one JSON line to the worker's standard input. */
public record WorkerRequest(long id, String source, SandboxLimits limits) {
}
