package lab.exactlyonce.sandbox.engine;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the sandbox's class loaders have in common: each defines classes from the class files it was made with, and
 * only those; answers the classes of ours that the code it defines links against with the engine's own classes,
 * before anything else, so that no class file can stand in for them; and leaves every other name to its subclass.
 * Defining is cheap next to compiling, so a fresh loader of the same class files is how the sandbox starts code
 * afresh (a run, a lifetime of the learner's process in an exercise check) with none of its static state.
 *
 * <p>Parallel capable, as every subclass must register itself to be: the compile-time view of an exercise's classes
 * serves compilations side by side.
 */
abstract class ClassFileLoader extends ClassLoader {
  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> classes;
  private final Map<String, Class<?>> engine;

  /**
   * @param classes binary class name (dotted) to class file; kept as it is, not copied: a loader per lifetime shares
   *     them
   * @param engine the classes of ours that the defined code may link against
   */
  ClassFileLoader(String name, Map<String, byte[]> classes, Class<?>... engine) {
    super(name, null);
    this.classes = classes;
    this.engine = Stream.of(engine).collect(Collectors.toUnmodifiableMap(Class::getName, Function.identity()));
  }

  @Override
  protected final Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded != null) return loaded;
      Class<?> ours = engine.get(name);
      if (ours != null) return ours;
      Class<?> lent = lent(name);
      if (lent != null) return lent;
      byte[] bytes = classes.get(name);
      if (bytes != null) return defineClass(name, bytes, 0, bytes.length);
      return library(name);
    }
  }

  /** A class another loader defines that this one must use instead of any class file of its own, or null. */
  Class<?> lent(String name) throws ClassNotFoundException {
    return null;
  }

  /** A class that is neither ours nor among the class files: from the JDK, or ClassNotFoundException. */
  abstract Class<?> library(String name) throws ClassNotFoundException;

  /** The class files this loader defines from. */
  final Map<String, byte[]> classFiles() {
    return classes;
  }
}
