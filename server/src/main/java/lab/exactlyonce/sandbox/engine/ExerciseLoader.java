package lab.exactlyonce.sandbox.engine;

import java.util.Map;

/**
 * The class loader of an exercise's trusted classes: what it provides to the learner's code and its checker. It
 * defines them from their own compilations and resolves everything else from {@code library} (the JDK), plus
 * {@link Budget}, {@link Trace} and {@link Check}; it never sees a learner class. A learner's {@link SnippetLoader}
 * asks it for the provided names first, so a learner class cannot stand in for them; the checker's names it never
 * hands to the learner's loader at all. One serves a whole check, across every lifetime of the learner's classes:
 * the provided environment (a table, a gateway) outlives the learner's crashes. Its name, {@value #NAME}, keeps its
 * frames out of the learner's stack traces.
 */
final class ExerciseLoader extends ClassFileLoader {
  static final String NAME = "exercise";

  static {
    registerAsParallelCapable();
  }

  private final ClassLoader library;

  /**
   * @param classes binary class name (dotted) to class file
   * @param library where JDK classes come from: the compile-time view for compiling, the platform loader for runs
   */
  ExerciseLoader(Map<String, byte[]> classes, ClassLoader library) {
    super(NAME, Map.copyOf(classes), Budget.class, Trace.class, Check.class);
    this.library = library;
  }

  @Override
  Class<?> library(String name) throws ClassNotFoundException {
    return library.loadClass(name);
  }
}
