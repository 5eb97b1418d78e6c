package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.CompileException;
import org.codehaus.commons.compiler.InternalCompilerException;
import org.codehaus.commons.compiler.Location;
import org.codehaus.janino.Java;
import org.codehaus.janino.Parser;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.SimpleCompiler;
import org.codehaus.janino.util.ClassFile;
import org.codehaus.janino.util.DeepCopier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles one snippet with Janino into class files (nothing is loaded here). Janino resolves library types
 * through {@link CompileLoader}: JDK classes only, never the application's own. Every error Janino reports is
 * collected with its line and column; for a learner's snippet they only mean that javac compiles it instead
 * ({@link Compilers}), while the trusted code of exercises must compile here.
 */
final class SnippetCompiler {
  private static final Logger LOG = LoggerFactory.getLogger(SnippetCompiler.class);

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
    return compile(fileName, source, CompileLoader.INSTANCE, Set.of());
  }

  /**
   * Compiles against {@code library}: the JDK's view ({@link CompileLoader}), or that and an exercise's classes,
   * whose names ({@code provided}) the source may not declare again; nor may it declare a {@code java.lang} name.
   */
  Compiled compile(String fileName, String source, ClassLoader library, Set<String> provided) {
    SimpleCompiler compiler = new SimpleCompiler();
    compiler.setTargetVersion(8);
    compiler.setDebuggingInformation(true, true, true);
    compiler.setParentClassLoader(library);
    List<Diagnostic> errors = new ArrayList<>();
    compiler.setCompileErrorHandler((message, location) -> {
      Diagnostic diagnostic = diagnostic(location, message);
      if (!errors.contains(diagnostic)) errors.add(diagnostic);
    });
    compiler.setWarningHandler((handle, message, location) -> { });
    try {
      Java.AbstractCompilationUnit unit =
          new Parser(new Scanner(fileName, new StringReader(source))).parseAbstractCompilationUnit();
      List<Diagnostic> shadowing = ShadowedNames.problems(declaredTypes(unit), provided);
      if (!shadowing.isEmpty()) return new Compiled(null, shadowing);
      compiler.cook(new FinallyOnce().copyAbstractCompilationUnit(unit));
    } catch (CompileException e) {
      if (errors.isEmpty()) errors.add(diagnostic(e.getLocation(), rawMessage(e.getMessage(), e.getLocation())));
    } catch (InternalCompilerException e) {
      // After a real error Janino's code generator may trip over what it left behind: the real error is the news.
      if (errors.isEmpty()) errors.add(internalCompilerError(e));
    } catch (RuntimeException | AssertionError e) {
      // Janino's own bug (a cast, an index, an assertion deep in its code generator), not the learner's mistake.
      LOG.warn("Janino failed on a snippet", e);
      if (errors.isEmpty()) errors.add(internalCompilerError(e));
    } catch (StackOverflowError e) {
      return new Compiled(null, List.of(new Diagnostic(0, 0, "the source is nested too deeply to compile")), true);
    } catch (IOException e) {
      throw new IllegalStateException("reading a string failed", e);
    }
    if (!errors.isEmpty()) {
      errors.sort(Comparator.comparingInt(Diagnostic::line).thenComparingInt(Diagnostic::column));
      return new Compiled(null, errors);
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    for (ClassFile file : compiler.getClassFiles()) classes.put(file.getThisClassName(), file.toByteArray());
    return new Compiled(classes, List.of());
  }

  /**
   * The classes the source declares that hide a provided or a {@code java.lang} name, as far as Janino parses it
   * (empty when it does not): when javac fails on such a source, its errors are the hiding's consequences.
   */
  static List<Diagnostic> shadowing(String fileName, String source, Set<String> provided) {
    try {
      return ShadowedNames.problems(declaredTypes(
          new Parser(new Scanner(fileName, new StringReader(source))).parseAbstractCompilationUnit()), provided);
    } catch (CompileException | IOException | RuntimeException | StackOverflowError e) {
      return List.of();
    }
  }

  /** The classes the unit declares at top level and as members, by binary name, with their lines. */
  private static Map<String, Integer> declaredTypes(Java.AbstractCompilationUnit unit) {
    Map<String, Integer> declared = new LinkedHashMap<>();
    if (unit instanceof Java.CompilationUnit) {
      for (Java.PackageMemberTypeDeclaration type : ((Java.CompilationUnit) unit).getPackageMemberTypeDeclarations()) {
        declare(type, type.getName(), declared);
      }
    }
    return declared;
  }

  private static void declare(Java.NamedTypeDeclaration type, String binaryName, Map<String, Integer> declared) {
    declared.put(binaryName, type.getLocation() == null ? 0 : type.getLocation().getLineNumber());
    for (Java.MemberTypeDeclaration member : type.getMemberTypeDeclarations()) {
      declare(member, binaryName + "$" + member.getName(), declared);
    }
  }

  private static Diagnostic diagnostic(Location location, String message) {
    int line = location == null ? 0 : Math.max(0, location.getLineNumber());
    int column = location == null ? 0 : Math.max(0, location.getColumnNumber());
    return new Diagnostic(line, column, message == null || message.isBlank() ? "compilation failed" : message);
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

  /**
   * What the learner sees when Janino itself fails on a construct it should compile (its code generator's internal
   * errors, or bytecode the JVM refuses): the construct is fine Java, so the hint is to say it another way.
   */
  static String couldNotHandle(String detail) {
    return "the compiler could not handle this construct (" + detail + "): try rewriting it in simpler steps, e.g."
        + " give the variable its value where it is declared, or split the expression into several statements";
  }

  private static final Pattern LINE_AND_COLUMN = Pattern.compile("Line (\\d+), Column (\\d+)");

  /**
   * Janino wraps a failure deep in its code generator in one exception per enclosing construct, each message
   * starting with that construct's location; the innermost location and the innermost message are the useful ones.
   */
  static Diagnostic internalCompilerError(Throwable e) {
    int line = 0;
    int column = 0;
    String detail = e.getClass().getSimpleName();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Throwable cause = e; cause != null && seen.add(cause); cause = cause.getCause()) {
      String message = cause.getMessage();
      if (cause instanceof CompileException && ((CompileException) cause).getLocation() != null) {
        Location location = ((CompileException) cause).getLocation();
        line = location.getLineNumber();
        column = location.getColumnNumber();
      }
      if (message == null) continue;
      Matcher m = LINE_AND_COLUMN.matcher(message);
      while (m.find()) {
        line = Integer.parseInt(m.group(1));
        column = Integer.parseInt(m.group(2));
      }
      String bare = message.replaceAll("^(?:(?:Compiling \"[^\"]*\" in )?(?:File [^,]*, )?Line \\d+, Column \\d+:? ?)+", "").trim();
      if (!bare.isEmpty() && !bare.startsWith("Compiling \"")) detail = bare;
    }
    return new Diagnostic(Math.max(0, line), Math.max(0, column), couldNotHandle(detail));
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
      return new Java.TryStatement(location, List.of(), inner, List.of(),
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
