package lab.exactlyonce.sandbox.engine;

import lab.exactlyonce.TestJvm;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A started worker process that said it is ready, speaking JSON lines; closing it kills the process. */
final class TestWorker implements AutoCloseable {

  final Process process;
  final BufferedReader out;
  final Writer in;

  TestWorker() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // The flags WorkerMain's javadoc recommends.
    ProcessBuilder builder = new ProcessBuilder(java, TestJvm.C1_ONLY, "-Xmx256m", "-XX:+UseSerialGC", "-XX:-OmitStackTraceInFastThrow",
        "-XX:+DisplayVMOutputToStderr", "--limit-modules",
        "java.base,java.logging,java.management,jdk.management,jdk.unsupported,jdk.compiler",
        "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName());
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    process = builder.start();
    out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    try {
      assertEquals(WorkerMain.READY_LINE, out.readLine());
    } catch (IOException | AssertionError e) {
      process.destroyForcibly();
      throw e;
    }
  }

  static String request(long id, String source, SandboxLimits limits) throws IOException {
    return JSON.writeValueAsString(new WorkerRequest(id, source, limits));
  }

  /** Writes these lines to the worker's stdin, then flushes. */
  void send(String... lines) throws IOException {
    for (String line : lines) in.write(line + "\n");
    in.flush();
  }

  /** Sends one run and reads its answer. */
  WorkerResponse run(long id, String source, SandboxLimits limits) throws IOException {
    send(request(id, source, limits));
    return response();
  }

  WorkerResponse response() throws IOException {
    return JSON.readValue(out.readLine(), WorkerResponse.class);
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
      in.close();
    } finally {
      process.destroyForcibly();
    }
  }

  /**
   * One worker for a test class ({@code @RegisterExtension}): started before its tests and ended after them, before
   * the leak check (registered for every class) looks for what was left running.
   */
  static final class PerClass implements BeforeAllCallback, AfterAllCallback {
    private TestWorker worker;

    TestWorker get() {
      return worker;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
      worker = new TestWorker();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
      worker.close();
    }
  }
}
