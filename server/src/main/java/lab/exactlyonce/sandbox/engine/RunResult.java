package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What one run produced. Compile problems and run output are kept apart; a failed run is data, not an exception.
 * {@code trace} holds what the snippet recorded through {@link Trace} (empty when it recorded nothing); {@code check}
 * what an exercise's checker reported, only for a check that ran through (absent otherwise, and from plain runs);
 * {@code timing} where the time went, added by the server once the worker has answered (absent before that, and when
 * the worker never answered).
 */
public record RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                        List<TraceEvent> trace,
                        @JsonInclude(JsonInclude.Include.NON_NULL) CheckReport check,
                        @JsonInclude(JsonInclude.Include.NON_NULL) RunTiming timing) {
  public RunResult {
    if (status == null) throw new IllegalArgumentException("a run result needs a status");
    stdout = stdout == null ? "" : stdout;
    stderr = stderr == null ? "" : stderr;
    diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
    trace = trace == null ? List.of() : List.copyOf(trace);
  }

  /** A result as the worker builds it, without timing. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                   List<TraceEvent> trace, CheckReport check) {
    this(status, stdout, stderr, diagnostics, elapsedMs, trace, check, null);
  }

  /** A result without a checker's report. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs,
                   List<TraceEvent> trace) {
    this(status, stdout, stderr, diagnostics, elapsedMs, trace, null, null);
  }

  /** A result without a trace. */
  public RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs) {
    this(status, stdout, stderr, diagnostics, elapsedMs, List.of(), null, null);
  }

  /** The same result without a checker's report: what a plain run may carry. */
  public RunResult withoutCheck() {
    return check == null ? this : new RunResult(status, stdout, stderr, diagnostics, elapsedMs, trace, null, timing);
  }

  /** The same result with where its time went. */
  public RunResult withTiming(RunTiming value) {
    return new RunResult(status, stdout, stderr, diagnostics, elapsedMs, trace, check, value);
  }
}
