package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What one run produced. Compile problems and run output are kept apart; a failed run is data, not an exception.
 * {@code trace} holds what the snippet recorded through {@link Trace} (empty when it recorded nothing); {@code check}
 * what an exercise's checker reported, only for a check that ran through (absent otherwise, and from plain runs).
 */
public record RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                        List<TraceEvent> trace,
                        @JsonInclude(JsonInclude.Include.NON_NULL) CheckReport check) {
  public RunResult {
    if (status == null) throw new IllegalArgumentException("a run result needs a status");
    stdout = stdout == null ? "" : stdout;
    stderr = stderr == null ? "" : stderr;
    diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
    trace = trace == null ? List.of() : List.copyOf(trace);
  }

  /** A result without a checker's report. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                   List<TraceEvent> trace) {
    this(status, stdout, stderr, diagnostics, elapsedMs, trace, null);
  }

  /** A result without a trace. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs) {
    this(status, stdout, stderr, diagnostics, elapsedMs, List.of(), null);
  }

  /** The same result without a checker's report: what a plain run may carry. */
  public RunResult withoutCheck() {
    return check == null ? this : new RunResult(status, stdout, stderr, diagnostics, elapsedMs, trace, null);
  }
}
