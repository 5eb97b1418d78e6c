package lab.exactlyonce.sandbox.engine;

import java.util.Map;

/**
 * The class loader of an exercise's trusted classes: what it provides to the learner's code and its checker. It
 * defines them from their own compilations and resolves everything else from {@code library} (the JDK), plus
 * {@link Budget}, {@link Trace} and {@link Check}; it never sees a learner class. A learner's {@link SnippetLoader}
 * asks it for the provided names first, so a learner class cannot stand in for them; the checker's names it never
 * hands to the learner's loader at all. Its name, {@value #NAME}, keeps its frames out of the learner's stack traces.
 */
final class ExerciseLoader extends ClassLoader {
  static final String NAME = "exercise";

  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> classes;
  private final ClassLoader library;

  /**
   * @param classes binary class name (dotted) to class file
   * @param library where JDK classes come from: the compile-time view for compiling, the platform loader for runs
   */
  ExerciseLoader(Map<String, byte[]> classes, ClassLoader library) {
    super(NAME, null);
    this.classes = Map.copyOf(classes);
    this.library = library;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded != null) return loaded;
      if (name.equals(Budget.class.getName())) return Budget.class;
      if (name.equals(Trace.class.getName())) return Trace.class;
      if (name.equals(Check.class.getName())) return Check.class;
      byte[] bytes = classes.get(name);
      if (bytes != null) return defineClass(name, bytes, 0, bytes.length);
      return library.loadClass(name);
    }
  }
}
