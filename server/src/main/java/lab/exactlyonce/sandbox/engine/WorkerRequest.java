package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One run asked of a worker process: written as one JSON line to the worker's standard input. {@code check} is
 * present for an exercise check: the exercise's trusted code, compiled and loaded apart from {@code source}.
 */
public record WorkerRequest(long id, String source, SandboxLimits limits,
                            @JsonInclude(JsonInclude.Include.NON_NULL) CheckSpec check) {
  /** A plain run. */
  public WorkerRequest(long id, String source, SandboxLimits limits) {
    this(id, source, limits, null);
  }
}
