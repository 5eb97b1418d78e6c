package lab.exactlyonce.sandbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The worker as the server uses it: a process speaking JSON lines. */
class WorkerMainTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A started worker process that said it is ready; closing it kills the process. */
  private static final class Worker implements AutoCloseable {
    final Process process;
    final BufferedReader out;
    final Writer in;

    Worker() throws Exception {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      // The flags WorkerMain's javadoc recommends.
      ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:-OmitStackTraceInFastThrow",
          "-XX:+DisplayVMOutputToStderr", "--limit-modules",
          "java.base,java.logging,java.management,jdk.management,jdk.unsupported",
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

    /** Writes these lines to the worker's stdin, then flushes. */
    void send(String... lines) throws IOException {
      for (String line : lines) in.write(line + "\n");
      in.flush();
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
  }

  private static String request(int id, String source, SandboxLimits limits) throws IOException {
    return JSON.writeValueAsString(new WorkerRequest(id, source, limits));
  }

  @Test
  void answers_each_request_line_with_one_response_line_and_exits_when_stdin_closes() throws Exception {
    try (Worker worker = new Worker()) {
      String printing = "public class Hello { public static void main(String[] a) {"
          + " System.out.println(\"hi \" + (6 * 7)); System.err.println(\"note\"); } }";
      worker.send(request(7, printing, SandboxLimits.defaults()));
      WorkerResponse first = worker.response();

      worker.send("{\"id\":8,\"source\":\"public class Exit { public static void main(String[] a) { System.exit(3); } }\"}");
      WorkerResponse second = worker.response();

      assertEquals(7, first.id());
      assertEquals(new RunResult(Outcome.OK, "hi 42\n", "note\n", List.of(), first.result().elapsedMs()), first.result());
      assertEquals(8, second.id());
      assertEquals(Outcome.REJECTED, second.result().status());
      assertEquals(List.of(new Diagnostic(1, 0, "java.lang.System.exit is not allowed in the sandbox")),
          second.result().diagnostics());

      worker.process.getOutputStream().close(); // stdin ends
      assertTrue(worker.process.waitFor(10, TimeUnit.SECONDS), "the worker did not exit after stdin closed");
      assertEquals(0, worker.process.exitValue());
      assertEquals(null, worker.out.readLine(), "nothing else on stdout");
    }
  }

  @Test
  void an_unreadable_request_is_answered_as_an_internal_error_and_the_worker_carries_on() throws Exception {
    try (Worker worker = new Worker()) {
      worker.send("{\"id\":5,\"source\":", request(6, "public class A { public static void main(String[] a)"
          + " { System.out.print(1); } }", null));

      WorkerResponse broken = worker.response();
      WorkerResponse fine = worker.response();
      assertEquals(new WorkerResponse(-1, new RunResult(Outcome.INTERNAL_ERROR, "", "",
          List.of(new Diagnostic(0, 0, "internal error: the worker could not read the request")), 0)), broken);
      assertEquals(6, fine.id());
      assertEquals("1", fine.result().stdout());
    }
  }

  @Test
  void a_run_stuck_in_a_library_call_is_answered_then_the_worker_exits_to_be_replaced() throws Exception {
    try (Worker worker = new Worker()) {
      String stuck = "public class Big { public static void main(String[] a) {"
          + " System.out.println(java.math.BigInteger.ONE.shiftLeft(40000000).toString().length()); } }";
      SandboxLimits limits = new SandboxLimits(500, 1_000_000, 64L << 20, 65536, 65536, 1_000);

      worker.send(request(1, stuck, limits));
      WorkerResponse response = worker.response();

      assertEquals(Outcome.TIMEOUT, response.result().status());
      assertTrue(worker.process.waitFor(10, TimeUnit.SECONDS), "the unhealthy worker did not exit");
      assertEquals(WorkerMain.EXIT_UNHEALTHY, worker.process.exitValue());
    }
  }
}
