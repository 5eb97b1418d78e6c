package lab.exactlyonce.sandbox.engine;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Which failures of a run may have left this JVM different for the runs after it, so that its worker must be
 * replaced. A stack overflow or an out-of-memory error can strike inside a JDK class's static initialiser (that
 * class then fails for the rest of the JVM's life with "NoClassDefFoundError: Could not initialize class") or in
 * the middle of updating JDK-wide state; a failed initialisation of a JDK class is that damage already done.
 * A learner's own class failing to initialise is harmless: it lives in the run's own class loader.
 *
 * <p>Only looks at the exact JDK types of the throwables (never calls a method a learner class could override),
 * so it is safe on any thread.
 */
final class WorkerDamage {
  private static final int MAX_CAUSES = 16;

  private WorkerDamage() {
  }

  /** Why {@code t} (or a cause of it) leaves the worker unfit for other runs, or null when it does not. */
  static String reason(Throwable t) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable c = t; c != null && seen.size() < MAX_CAUSES && seen.add(c); c = jdkCause(c)) {
      if (c instanceof StackOverflowError) return "a stack overflow";
      if (c instanceof OutOfMemoryError) return "an OutOfMemoryError";
      if (c instanceof VirtualMachineError) return "a " + c.getClass().getName();
      if (c.getClass() == NoClassDefFoundError.class) {
        String message = c.getMessage();
        if (message != null && message.startsWith("Could not initialize class ")
            && isJdk(message.substring("Could not initialize class ".length()))) {
          return "a failed initialisation of " + message.substring("Could not initialize class ".length());
        }
      }
      if (c.getClass() == ExceptionInInitializerError.class && jdkInitializerFailed(c.getCause())) {
        return "a failed initialisation of a JDK class";
      }
    }
    return null;
  }

  /** The cause, when {@code t} is of a JDK class (whose getCause() no learner overrides); else null. */
  private static Throwable jdkCause(Throwable t) {
    return isJdkType(t) ? t.getCause() : null;
  }

  /** Whether a static initialiser of a JDK class is on the stack where {@code cause} was thrown. */
  private static boolean jdkInitializerFailed(Throwable cause) {
    if (cause == null || !isJdkType(cause)) return false;  // a learner's exception comes from a learner's initialiser
    for (StackTraceElement frame : cause.getStackTrace()) {
      if (frame.getMethodName().equals("<clinit>") && !SnippetLoader.NAME.equals(frame.getClassLoaderName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isJdkType(Throwable t) {
    return t.getClass().getClassLoader() == null || t.getClass().getClassLoader() == ClassLoader.getPlatformClassLoader();
  }

  private static boolean isJdk(String className) {
    return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
        || className.startsWith("sun.") || className.startsWith("com.sun.");
  }
}
