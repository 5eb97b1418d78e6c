package lab.exactlyonce.bench;

import lab.exactlyonce.bench.SandboxBenchmark.Demo;

import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The two routes the sandbox is compared with, run in the benchmark's own process: javac in memory (compile,
 * load, call {@code main}), and a fresh JVM per run in source-file mode, as Judge0 and Piston do.
 */
final class BaselineRoutes {
  private BaselineRoutes() {
  }

  /** The javac route: compile in memory with javax.tools, load, run main, capture System.out. */
  static Stats javacInMemory(Demo demo, int runs) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) return new Stats("", 0, 0, Double.NaN, Double.NaN, 0);
    String className = demo.source().replaceAll("(?s).*?public class (\\w+).*", "$1");
    List<Double> times = new ArrayList<>();
    int errors = 0;
    PrintStream realOut = System.out;
    for (int i = 0; i < runs + 5; i++) {
      long t = System.nanoTime();
      Map<String, ByteArrayOutputStream> classes = new HashMap<>();
      var files = new ForwardingJavaFileManager<>(javac.getStandardFileManager(null, null, null)) {
        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String name, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
          return new SimpleJavaFileObject(URI.create("mem:///" + name.replace('.', '/') + kind.extension), kind) {
            @Override
            public OutputStream openOutputStream() {
              return classes.computeIfAbsent(name, n -> new ByteArrayOutputStream());
            }
          };
        }
      };
      var source = new SimpleJavaFileObject(URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
          return demo.source();
        }
      };
      boolean compiled = javac.getTask(null, files, null, List.of("-proc:none", "-g:none"), null, List.of(source)).call();
      String out = "";
      if (compiled) {
        ClassLoader loader = new ClassLoader(BaselineRoutes.class.getClassLoader()) {
          @Override
          protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream bytes = classes.get(name);
            if (bytes == null) throw new ClassNotFoundException(name);
            byte[] b = bytes.toByteArray();
            return defineClass(name, b, 0, b.length);
          }
        };
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
          Method main = loader.loadClass(className).getMethod("main", String[].class);
          main.invoke(null, (Object) new String[0]);
        } finally {
          System.setOut(realOut);
        }
        out = captured.toString(StandardCharsets.UTF_8);
      }
      if (i >= 5) {   // the first few warm javac up
        times.add((System.nanoTime() - t) / 1e6);
        if (!demo.expected().equals(out)) errors++;
      }
    }
    return Stats.of(times, errors, 0);
  }

  /** The Judge0/Piston shape: a fresh JVM per run, in source-file mode. */
  static Stats freshJvm(Demo demo, int runs) throws Exception {
    Path dir = Files.createTempDirectory("eolab-bench-fresh");
    Path file = dir.resolve("Snippet.java");
    Files.writeString(file, demo.source());
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<Double> times = new ArrayList<>();
    int errors = 0;
    for (int i = 0; i < runs; i++) {
      long t = System.nanoTime();
      // The demos record traces through lab.exactlyonce.sandbox.engine.Trace, so the JVM needs the app's class path.
      Process p = new ProcessBuilder(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"), file.toString())
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      boolean exited = p.waitFor(60, TimeUnit.SECONDS);
      times.add((System.nanoTime() - t) / 1e6);
      if (!exited || p.exitValue() != 0 || !demo.expected().equals(out)) errors++;
    }
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir);
    return Stats.of(times, errors, 0);
  }
}
