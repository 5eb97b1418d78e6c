package lab.exactlyonce.sandbox.engine;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which compiler compiles a snippet: Janino, the fast one, when it compiles the source with Java's semantics
 * ({@link JaninoFit}) and accepts it; javac otherwise, whose errors are then the ones the learner sees, unless the
 * source declares a class that hides a provided or {@code java.lang} name: that is the mistake to fix. Both
 * compilers' class files go through the same checks afterwards.
 */
final class Compilers {
  private final SnippetCompiler janino = new SnippetCompiler();

  /** The result, and whether javac compiled it. */
  record Result(SnippetCompiler.Compiled compiled, boolean javac) {
  }

  SnippetCompiler janino() {
    return janino;
  }

  /** @param javacOn set to the compiling thread when javac starts, so that the caller may stop it */
  Result compile(String fileName, String source, ExerciseHarness harness, AtomicReference<Thread> javacOn) {
    if (JaninoFit.fits(source)) {
      SnippetCompiler.Compiled fast = harness == null ? janino.compile(fileName, source)
          : janino.compile(fileName, source, harness.compileLibrary(), harness.providedNames());
      if (fast.ok() || fast.overflowed()) return new Result(fast, false);
    }
    javacOn.set(Thread.currentThread());
    SnippetCompiler.Compiled javac = harness == null ? JavacCompiler.compile(fileName, source)
        : JavacCompiler.compile(fileName, source, harness.provided());
    if (javac.ok()) return new Result(javac, true);
    List<Diagnostic> hiding = SnippetCompiler.shadowing(fileName, source, harness == null ? Set.of() : harness.providedNames());
    return new Result(hiding.isEmpty() ? javac : new SnippetCompiler.Compiled(null, hiding), true);
  }
}
