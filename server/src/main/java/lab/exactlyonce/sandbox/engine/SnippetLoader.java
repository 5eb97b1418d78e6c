package lab.exactlyonce.sandbox.engine;

import java.util.Map;
import java.util.Set;

/**
 * The class loader of the learner's code: it defines the snippet's (verified, instrumented) classes and resolves
 * nothing else but allowlisted JDK classes, what the JVM needs to link the admitted {@link Bootstraps},
 * {@link Budget}, {@link Trace} and, in an exercise check, the classes the exercise provides (asked of its
 * {@link ExerciseLoader} before the snippet's own, so a learner class cannot stand in for them). A fresh one per run,
 * and in an exercise check per lifetime of the learner's process ({@link #afresh()}), so no static state survives
 * either. Its name, {@value #NAME}, marks the learner's frames in stack traces.
 */
final class SnippetLoader extends ClassFileLoader {
  static final String NAME = "snippet";
  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  static {
    registerAsParallelCapable();
  }

  private final ClassLoader exercise;
  private final Set<String> provided;

  /** @param classes binary class name (dotted) to class file */
  SnippetLoader(Map<String, byte[]> classes) {
    this(classes, null, Set.of());
  }

  /** A run of an exercise check: {@code provided} names the classes {@code exercise} gives the learner's code. */
  SnippetLoader(Map<String, byte[]> classes, ClassLoader exercise, Set<String> provided) {
    super(NAME, classes, Budget.class, Trace.class);
    this.exercise = exercise;
    this.provided = Set.copyOf(provided);
  }

  /** A new loader of the same class files and the same exercise: the learner's classes as a new process sees them. */
  SnippetLoader afresh() {
    return new SnippetLoader(classFiles(), exercise, provided);
  }

  /** The learner's own class of that name, loaded (not initialised), or null when the snippet has none. */
  Class<?> ownClass(String name) {
    if (!classFiles().containsKey(name) || provided.contains(name)) return null;
    try {
      return loadClass(name, false);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  @Override
  Class<?> lent(String name) throws ClassNotFoundException {
    return provided.contains(name) ? exercise.loadClass(name) : null;
  }

  @Override
  Class<?> library(String name) throws ClassNotFoundException {
    if (ApiPolicy.allowsClass(name.replace('.', '/')) || Bootstraps.linked(name)) {
      return Class.forName(name, false, PLATFORM);
    }
    throw new ClassNotFoundException(name + " is not allowed in the sandbox");
  }
}
