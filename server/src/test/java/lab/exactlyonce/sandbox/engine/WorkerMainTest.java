package lab.exactlyonce.sandbox.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The worker as the server uses it: a process speaking JSON lines. */
class WorkerMainTest {
  private final ObjectMapper json = new ObjectMapper();

  private static Process start() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // The flags WorkerMain's javadoc recommends.
    ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:-OmitStackTraceInFastThrow",
        "-XX:+DisplayVMOutputToStderr", "--limit-modules",
        "java.base,java.logging,java.management,jdk.management,jdk.unsupported",
        "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName());
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    return builder.start();
  }

  @Test
  void answers_each_request_line_with_one_response_line_and_exits_when_stdin_closes() throws Exception {
    Process worker = start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
         Writer in = new OutputStreamWriter(worker.getOutputStream(), StandardCharsets.UTF_8)) {
      assertEquals(WorkerMain.READY_LINE, out.readLine());

      String printing = "public class Hello { public static void main(String[] a) {"
          + " System.out.println(\"hi \" + (6 * 7)); System.err.println(\"note\"); } }";
      in.write(json.writeValueAsString(new WorkerRequest(7, printing, SandboxLimits.defaults())) + "\n");
      in.flush();
      WorkerResponse first = json.readValue(out.readLine(), WorkerResponse.class);

      in.write("{\"id\":8,\"source\":\"public class Exit { public static void main(String[] a) { System.exit(3); } }\"}\n");
      in.flush();
      WorkerResponse second = json.readValue(out.readLine(), WorkerResponse.class);

      assertEquals(7, first.id());
      assertEquals(new RunResult(Outcome.OK, "hi 42\n", "note\n", List.of(), first.result().elapsedMs()), first.result());
      assertEquals(8, second.id());
      assertEquals(Outcome.REJECTED, second.result().status());
      assertEquals(List.of(new Diagnostic(1, 0, "java.lang.System.exit is not allowed in the sandbox")),
          second.result().diagnostics());

      worker.getOutputStream().close(); // stdin ends
      assertTrue(worker.waitFor(10, TimeUnit.SECONDS), "the worker did not exit after stdin closed");
      assertEquals(0, worker.exitValue());
      assertEquals(null, out.readLine(), "nothing else on stdout");
    } finally {
      worker.destroyForcibly();
    }
  }

  @Test
  void an_unreadable_request_is_answered_as_an_internal_error_and_the_worker_carries_on() throws Exception {
    Process worker = start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
         Writer in = new OutputStreamWriter(worker.getOutputStream(), StandardCharsets.UTF_8)) {
      assertEquals(WorkerMain.READY_LINE, out.readLine());

      in.write("{\"id\":5,\"source\":\n");
      in.write(json.writeValueAsString(new WorkerRequest(6, "public class A { public static void main(String[] a)"
          + " { System.out.print(1); } }", null)) + "\n");
      in.flush();

      WorkerResponse broken = json.readValue(out.readLine(), WorkerResponse.class);
      WorkerResponse fine = json.readValue(out.readLine(), WorkerResponse.class);
      assertEquals(new WorkerResponse(-1, new RunResult(Outcome.INTERNAL_ERROR, "", "",
          List.of(new Diagnostic(0, 0, "internal error: the worker could not read the request")), 0)), broken);
      assertEquals(6, fine.id());
      assertEquals("1", fine.result().stdout());
    } finally {
      worker.destroyForcibly();
    }
  }

  @Test
  void a_run_stuck_in_a_library_call_is_answered_then_the_worker_exits_to_be_replaced() throws Exception {
    Process worker = start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
         Writer in = new OutputStreamWriter(worker.getOutputStream(), StandardCharsets.UTF_8)) {
      assertEquals(WorkerMain.READY_LINE, out.readLine());
      String stuck = "public class Big { public static void main(String[] a) {"
          + " System.out.println(java.math.BigInteger.ONE.shiftLeft(40000000).toString().length()); } }";
      SandboxLimits limits = new SandboxLimits(500, 1_000_000, 64L << 20, 65536, 65536, 1_000);

      in.write(json.writeValueAsString(new WorkerRequest(1, stuck, limits)) + "\n");
      in.flush();
      WorkerResponse response = json.readValue(out.readLine(), WorkerResponse.class);

      assertEquals(Outcome.TIMEOUT, response.result().status());
      assertTrue(worker.waitFor(10, TimeUnit.SECONDS), "the unhealthy worker did not exit");
      assertEquals(WorkerMain.EXIT_UNHEALTHY, worker.exitValue());
    } finally {
      worker.destroyForcibly();
    }
  }
}
