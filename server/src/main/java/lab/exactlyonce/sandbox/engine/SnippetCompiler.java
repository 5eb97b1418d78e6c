package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.InternalCompilerException;
import org.codehaus.commons.compiler.Location;
import org.codehaus.janino.Java;
import org.codehaus.janino.Parser;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.SimpleCompiler;
import org.codehaus.janino.util.DeepCopier;
import org.codehaus.janino.util.ClassFile;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles one snippet with Janino into class files (nothing is loaded here). Janino resolves library types
 * through {@link CompileLoader}: JDK classes only, never the application's own. Every error Janino reports is
 * collected with its line and column, and Janino's "not yet implemented" errors get a hint for modern Java.
 */
final class SnippetCompiler {

  /**
   * The class files in Janino's order (nested classes before their outer class), or the errors; {@code overflowed}:
   * the compiler ran out of stack, which may have struck inside a JDK class's initialiser on the way.
   */
  record Compiled(Map<String, byte[]> classes, List<Diagnostic> errors, boolean overflowed) {
    Compiled {
      classes = classes == null ? Map.of() : classes;
      errors = List.copyOf(errors);
    }

    Compiled(Map<String, byte[]> classes, List<Diagnostic> errors) {
      this(classes, errors, false);
    }

    boolean ok() {
      return errors.isEmpty();
    }
  }

  Compiled compile(String fileName, String source) {
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setTargetVersion(8);
    compiler.setDebuggingInformation(true, true, true);
    compiler.setParentClassLoader(CompileLoader.INSTANCE);
    List<Diagnostic> errors = new ArrayList<>();
    ModernJavaHints hints = new ModernJavaHints(source);
    compiler.setCompileErrorHandler((message, location) -> {
      Diagnostic diagnostic = hints.diagnostic(location, message);
      if (!errors.contains(diagnostic) && !ModernJavaHints.isFollowOn(diagnostic.message(), errors)) errors.add(diagnostic);
    });
    compiler.setWarningHandler((handle, message, location) -> { });
    try {
      Java.AbstractCompilationUnit unit =
          new Parser(new Scanner(fileName, new StringReader(source))).parseAbstractCompilationUnit();
      compiler.cook(new FinallyOnce().copyAbstractCompilationUnit(unit));
    } catch (CompileException e) {
      if (errors.isEmpty()) errors.add(hints.diagnostic(e.getLocation(), rawMessage(e.getMessage(), e.getLocation())));
    } catch (InternalCompilerException e) {
      errors.add(internalCompilerError(e, hints));
    } catch (StackOverflowError e) {
      return new Compiled(null, List.of(new Diagnostic(0, 0, "the source is nested too deeply to compile")), true);
    } catch (IOException e) {
      throw new IllegalStateException("reading a string failed", e);
    }
    if (!errors.isEmpty()) {
      errors.sort(java.util.Comparator.comparingInt(Diagnostic::line).thenComparingInt(Diagnostic::column));
      return new Compiled(null, errors);
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    for (ClassFile file : compiler.getClassFiles()) classes.put(file.getThisClassName(), file.toByteArray());
    return new Compiled(classes, List.of());
  }

  /** Janino's message prefixes the location ("File 'Main.java', Line 4, Column 5: "); the diagnostic has it apart. */
  static String rawMessage(String message, Location location) {
    if (message == null) return "compilation failed";
    if (location != null) {
      String prefix = location + ": ";
      if (message.startsWith(prefix)) return message.substring(prefix.length());
    }
    return message;
  }

  /** Janino wraps a failure deep in its code generator; the innermost message with a location is the useful one. */
  private static Diagnostic internalCompilerError(InternalCompilerException e, ModernJavaHints hints) {
    Throwable cause = e;
    Location location = null;
    String message = e.getMessage();
    while (cause != null) {
      if (cause instanceof CompileException && ((CompileException) cause).getLocation() != null) {
        location = ((CompileException) cause).getLocation();
        message = rawMessage(cause.getMessage(), location);
      } else if (cause.getMessage() != null && cause != e) {
        message = cause.getMessage();
      }
      cause = cause.getCause();
    }
    return hints.diagnostic(location, "the compiler could not handle this: " + message);
  }

  /**
   * Works around a Janino 3.1.12 bug: in {@code try { } catch (E e) { } finally { F }} a catch block that completes
   * normally runs F twice (once inlined after the catch, once more on the shared exit path). Rewritten as the
   * equivalent {@code try { try { } catch (E e) { } } finally { F }}, which Janino compiles correctly.
   */
  static final class FinallyOnce extends DeepCopier {
    @Override
    public Java.BlockStatement copyTryStatement(Java.TryStatement subject) throws CompileException {
      if (subject.finallY == null || subject.catchClauses.isEmpty()) return super.copyTryStatement(subject);
      Location location = subject.getLocation();
      Java.Block inner = new Java.Block(location);
      inner.addStatement(new Java.TryStatement(location, copyResources(subject.resources),
          copyBlockStatement(subject.body), copyCatchClauses(subject.catchClauses)));
      return new Java.TryStatement(location, java.util.List.of(), inner, java.util.List.of(),
          copyBlock(subject.finallY));
    }
  }

  /**
   * Janino's view of the library: classes of the JDK's own modules (loaded, not initialised) and {@link Trace},
   * nothing else of the application. Refusing more here breaks harmless code (Janino loads supertypes and overload parameter types of
   * everything it touches), so forbidden JDK APIs compile and are then rejected by the {@link BytecodeVerifier}
   * with a message that names them and their line.
   */
  static final class CompileLoader extends ClassLoader {
    static final CompileLoader INSTANCE = new CompileLoader();
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

    private CompileLoader() {
      super("snippet-compile", null);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.equals(Trace.class.getName())) return Trace.class; // the one class of ours a snippet may name
      if (!isJdk(name)) throw new ClassNotFoundException(name);
      Class<?> type = Class.forName(name, false, PLATFORM);
      // Janino reads constants of the classes it sees, which initialises them: keep to java.base (and
      // jdk.unsupported, so sun.misc.Unsafe is named by the check), never AWT and the like with native code.
      String module = type.getModule().getName();
      if (!"java.base".equals(module) && !"jdk.unsupported".equals(module)) throw new ClassNotFoundException(name);
      return type;
    }

    /** JDK packages, so that the bytecode check can name a forbidden one (sun.misc.Unsafe) instead of Janino failing. */
    private static boolean isJdk(String name) {
      return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("sun.")
          || name.startsWith("jdk.") || name.startsWith("com.sun.");
    }
  }
}
