package lab.exactlyonce.sandbox.engine;

/** A message about the learner's source at a line and column (1-based; 0 when unknown). */
public record Diagnostic(int line, int column, String message) {
  public Diagnostic {
    if (message == null || message.isBlank()) throw new IllegalArgumentException("a diagnostic needs a message");
  }
}
