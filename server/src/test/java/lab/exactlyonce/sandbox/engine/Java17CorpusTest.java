package lab.exactlyonce.sandbox.engine;

import lab.exactlyonce.TestJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Java 17 programs run through a real worker print exactly what they print under plain {@code javac} and
 * {@code java} outside the sandbox, compiled and run here side by side.
 */
class Java17CorpusTest {
  @RegisterExtension
  static final TestWorker.PerClass WORKER = new TestWorker.PerClass();
  private static long id;

  @TempDir
  static Path outside;

  @ParameterizedTest
  @ValueSource(strings = {"Records", "Lambdas", "Streams", "SwitchAndPatterns", "TextBlocksAndVar", "Generics",
      "NestedClasses", "EnumsAndInterfaces", "ResourcesAndExceptions", "LabelsAndAsserts", "PlainJava",
      "PrimitivesOnJanino", "Hailstone", "AllocationChurn", "TextFormats"})
  void prints_what_javac_and_java_print(String program) throws Exception {
    String source = resource("/java17/" + program + ".java");

    RunResult sandboxed = WORKER.get().run(++id, source, SandboxLimits.defaults()).result();

    assertEquals(new RunResult(Outcome.OK, plainJava(program, source), "", List.of(), sandboxed.elapsedMs(),
        sandboxed.trace()), sandboxed);
  }

  @Test
  void the_corpus_takes_the_fast_compiler_too() throws IOException {
    assertTrue(JaninoFit.fits(resource("/java17/PrimitivesOnJanino.java")));
  }

  /** What {@code javac Main.java && java Main} prints, in a directory of its own. */
  private static String plainJava(String program, String source) throws IOException, InterruptedException {
    Path dir = Files.createDirectories(outside.resolve(program));
    Path file = Files.writeString(dir.resolve("Main.java"), source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertEquals(0, javac.run(null, null, null, "-d", dir.toString(), file.toString()), "javac compiles " + program);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(java.toString(), TestJvm.C1_ONLY, "-Duser.language=en", "-Duser.country=US",
        "-Dfile.encoding=UTF-8", "-cp", dir.toString(), "Main")
        .redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), "java runs " + program + ": " + output);
    return output;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = Java17CorpusTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
