package lab.exactlyonce.sandbox.engine;

import java.util.List;

/** What one run produced. Compile problems and run output are kept apart; a failed run is data, not an exception. */
public record RunResult(Outcome status, String stdout, String stderr, List<Diagnostic> diagnostics, long elapsedMs) {
  public RunResult {
    if (status == null) throw new IllegalArgumentException("a run result needs a status");
    stdout = stdout == null ? "" : stdout;
    stderr = stderr == null ? "" : stderr;
    diagnostics = diagnostics == null ? List.of() : List.copyOf(diagnostics);
  }
}
