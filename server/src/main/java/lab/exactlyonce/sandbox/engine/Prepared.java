package lab.exactlyonce.sandbox.engine;

import java.util.List;
import java.util.Map;

/**
 * A snippet ready to run (instrumented class files by binary name, and the class whose main runs) or the
 * learner's mistake found before running (compile errors or forbidden APIs).
 */
record Prepared(Outcome failure, List<Diagnostic> diagnostics, Map<String, byte[]> classes, String mainClass) {
  Prepared {
    diagnostics = List.copyOf(diagnostics);
    classes = classes == null ? Map.of() : Map.copyOf(classes);
  }

  static Prepared failed(Outcome outcome, List<Diagnostic> diagnostics) {
    return new Prepared(outcome, diagnostics, null, null);
  }

  static Prepared runnable(Map<String, byte[]> classes, String mainClass) {
    return new Prepared(null, List.of(), classes, mainClass);
  }

  boolean runnable() {
    return failure == null;
  }
}
