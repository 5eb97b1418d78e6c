package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The demos name Trace, yet still compile with javac and run as plain Java with the application on the class path. */
class TraceOutsideSandboxTest {
  @Test
  void the_sink_demo_compiles_with_javac_and_runs_without_the_sandbox() throws Exception {
    Path dir = Files.createTempDirectory("plain-java");
    String text;
    try (InputStream in = getClass().getResourceAsStream("/snippets/exactly-once/SinkDemo.java")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path file = dir.resolve("SinkDemo.java");
    Files.writeString(file, text);
    String classes = Path.of(Trace.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int status = javac.run(null, null, errors, "-nowarn", "-cp", classes, "-d", dir.toString(), file.toString());
    assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream before = System.out;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      loader.loadClass("SinkDemo").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(before);
    }
    assertEquals("AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        out.toString(StandardCharsets.UTF_8));
  }
}
