package lab.exactlyonce.sandbox.engine;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compiles one snippet with javac, in memory ({@link MemoryFileManager}): Java 17 as {@code javac} compiles it, with
 * debug information (so a NullPointerException names the variable), no annotation processing, and against the JDK's
 * {@code java.base} (and {@code jdk.unsupported}, so the bytecode check names {@code sun.misc.Unsafe}) plus the
 * library's class files. The options are fixed here: no source can add any (no {@code @}-files, no paths).
 */
final class JavacCompiler {
  private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();
  private static final List<String> OPTIONS = List.of("-g", "-proc:none", "-implicit:none", "-nowarn", "-Xlint:none",
      "-encoding", "UTF-8", "-Xmaxerrs", "100");
  private static final Map<String, byte[]> TRACE = Map.of(Trace.class.getName(), classFile(Trace.class));
  /** The standard manager caches what it read of the JDK: one per compiler thread, as it is not thread-safe. */
  private static final ThreadLocal<StandardJavaFileManager> STANDARD = ThreadLocal.withInitial(JavacCompiler::jdkOnly);

  private JavacCompiler() {
  }

  static SnippetCompiler.Compiled compile(String fileName, String source) {
    return compile(fileName, source, Map.of());
  }

  /** Compiles against the {@link Trace} API and {@code provided} (binary name to class file) as the class path. */
  static SnippetCompiler.Compiled compile(String fileName, String source, Map<String, byte[]> provided) {
    Map<String, byte[]> library = new LinkedHashMap<>(TRACE);
    library.putAll(provided);
    MemoryFileManager files = new MemoryFileManager(STANDARD.get(), library);
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    JavaFileObject unit = new SimpleJavaFileObject(URI.create("mem:///" + fileName), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return source;
      }

      /** A snippet is one file of several public classes, as {@code java Snippet.java} takes it. */
      @Override
      public boolean isNameCompatible(String simpleName, Kind kind) {
        return kind == Kind.SOURCE;
      }
    };
    boolean ok;
    try {
      ok = JAVAC.getTask(Writer.nullWriter(), files, diagnostics, OPTIONS, null, List.of(unit)).call();
    } catch (StackOverflowError e) {
      return new SnippetCompiler.Compiled(null, List.of(new Diagnostic(0, 0, "the source is nested too deeply to compile")), true);
    }
    List<Diagnostic> errors = JavacMessages.plain(diagnostics.getDiagnostics());
    if (!ok && errors.isEmpty()) errors = List.of(new Diagnostic(0, 0, "the source does not compile"));
    return ok ? new SnippetCompiler.Compiled(files.classes(), List.of()) : new SnippetCompiler.Compiled(null, errors);
  }

  /**
   * The standard manager with every path but the JDK's emptied: by default it would take the class path and the
   * source path from this JVM's own class path and look into its jars.
   */
  private static StandardJavaFileManager jdkOnly() {
    StandardJavaFileManager standard = JAVAC.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    try {
      for (StandardLocation location : List.of(StandardLocation.CLASS_PATH, StandardLocation.SOURCE_PATH,
          StandardLocation.ANNOTATION_PROCESSOR_PATH, StandardLocation.MODULE_PATH,
          StandardLocation.ANNOTATION_PROCESSOR_MODULE_PATH)) {
        standard.setLocation(location, List.of());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return standard;
  }

  private static byte[] classFile(Class<?> type) {
    try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
      if (in == null) throw new IllegalStateException("the class file of " + type.getName() + " is not on the class path");
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
