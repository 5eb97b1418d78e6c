package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Formats an exception the way {@code java} prints an uncaught one, keeping only the learner's frames (those of
 * classes defined by a {@link SnippetLoader}): no frames of the sandbox, the reflection that called
 * {@code main}, or the JDK.
 */
final class LearnerStackTrace {
  private static final int MAX_FRAMES = 24;

  private LearnerStackTrace() {
  }

  static List<StackTraceElement> learnerFrames(StackTraceElement[] trace) {
    List<StackTraceElement> frames = new ArrayList<>();
    for (StackTraceElement e : trace) {
      if (SnippetLoader.NAME.equals(e.getClassLoaderName())) frames.add(e);
    }
    return frames;
  }

  /**
   * The learner's frames as {@code getStackTrace()} returns them outside the sandbox: without the class loader's
   * name, which would print as "snippet//Main.main(Main.java:4)".
   */
  static StackTraceElement[] learnerElements(StackTraceElement[] trace) {
    List<StackTraceElement> frames = learnerFrames(trace);
    StackTraceElement[] out = new StackTraceElement[frames.size()];
    for (int i = 0; i < out.length; i++) {
      StackTraceElement e = frames.get(i);
      out[i] = new StackTraceElement(e.getClassName(), e.getMethodName(), e.getFileName(), e.getLineNumber());
    }
    return out;
  }

  /** The line of the first learner frame of the innermost cause that has one, or 0. */
  static int line(Throwable t) {
    int line = 0;
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      int found = line(c.getStackTrace());
      if (found > 0) line = found;
    }
    return line;
  }

  /** The line of the innermost learner frame that has one, or 0. */
  static int line(StackTraceElement[] trace) {
    for (StackTraceElement e : learnerFrames(trace)) if (e.getLineNumber() > 0) return e.getLineNumber();
    return 0;
  }

  /** "Exception in thread "main" java.lang.ArithmeticException: / by zero\n\tat Main.main(Main.java:4)\n" */
  static String format(Throwable t) {
    return "Exception in thread \"main\" " + trace(t);
  }

  /** What {@code printStackTrace()} prints, with the learner's frames only. */
  static String trace(Throwable t) {
    StringBuilder out = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean first = true;
    for (Throwable c = t; c != null && seen.add(c); c = c.getCause()) {
      if (!first) out.append("Caused by: ");
      first = false;
      out.append(describe(c)).append('\n');
      List<StackTraceElement> frames = learnerFrames(c.getStackTrace());
      for (int i = 0; i < frames.size() && i < MAX_FRAMES; i++) out.append("\tat ").append(frame(frames.get(i))).append('\n');
      if (frames.size() > MAX_FRAMES) out.append("\t... ").append(frames.size() - MAX_FRAMES).append(" more\n");
    }
    return out.toString();
  }

  /** {@code t.toString()}, which may run the learner's own {@code getMessage()}; its class name if that fails. */
  static String describe(Throwable t) {
    try {
      return String.valueOf(t);
    } catch (Throwable failed) {
      return t.getClass().getName();
    }
  }

  private static String frame(StackTraceElement e) {
    String where = e.getFileName() == null ? "Unknown Source"
        : e.getLineNumber() > 0 ? e.getFileName() + ":" + e.getLineNumber() : e.getFileName();
    return e.getClassName() + "." + e.getMethodName() + "(" + where + ")";
  }
}
