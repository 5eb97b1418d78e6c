package lab.exactlyonce.sandbox.engine;

import java.util.Map;

/**
 * The class loader of one run: it defines the snippet's (verified, instrumented) classes and resolves nothing
 * else but allowlisted JDK classes, {@link Budget} and {@link Trace}. A fresh one per run, so no static state survives a run.
 * Its name, {@value #NAME}, marks the learner's frames in stack traces.
 */
final class SnippetLoader extends ClassLoader {
  static final String NAME = "snippet";
  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  static {
    registerAsParallelCapable();
  }

  private final Map<String, byte[]> classes;

  /** @param classes binary class name (dotted) to class file */
  SnippetLoader(Map<String, byte[]> classes) {
    super(NAME, null);
    this.classes = classes;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> loaded = findLoadedClass(name);
      if (loaded != null) return loaded;
      // First: a learner class cannot stand in for them.
      if (name.equals(Budget.class.getName())) return Budget.class;
      if (name.equals(Trace.class.getName())) return Trace.class;
      byte[] bytes = classes.get(name);
      if (bytes != null) return defineClass(name, bytes, 0, bytes.length);
      if (ApiPolicy.allowsClass(name.replace('.', '/'))) return Class.forName(name, false, PLATFORM);
      throw new ClassNotFoundException(name + " is not allowed in the sandbox");
    }
  }
}
