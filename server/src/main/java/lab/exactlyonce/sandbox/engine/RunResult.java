package lab.exactlyonce.sandbox.engine;

import java.util.List;

/**
 * What one run produced. Compile problems and run output are kept apart; a failed run is data, not an exception.
 * {@code trace} holds what the snippet recorded through {@link Trace} (empty when it recorded nothing).
 */
public record RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                        List<TraceEvent> trace) {
  public RunResult {
    if (status == null) throw new IllegalArgumentException("a run result needs a status");
    stdout = stdout == null ? "" : stdout;
    stderr = stderr == null ? "" : stderr;
    diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
    trace = trace == null ? List.of() : List.copyOf(trace);
  }

  /** A result without a trace. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs) {
    this(status, stdout, stderr, diagnostics, elapsedMs, List.of());
  }
}
