package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The worker as the server uses it: a process speaking JSON lines. */
@Tag("sandbox")
class WorkerMainTest {

  private static String request(int id, String source, SandboxLimits limits) throws IOException {
    return TestWorker.request(id, source, limits);
  }

  @Test
  void answers_each_request_line_with_one_response_line_and_exits_when_stdin_closes() throws Exception {
    try (TestWorker worker = new TestWorker()) {
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
    try (TestWorker worker = new TestWorker()) {
      worker.send("{\"id\":5,\"source\":", request(6, "public class A { public static void main(String[] a)"
          + " { System.out.print(1); } }", null));

      WorkerResponse broken = worker.response();
      WorkerResponse fine = worker.response();
      assertEquals(-1, broken.id());
      assertEquals(new RunResult(Outcome.INTERNAL_ERROR, "", "",
          List.of(new Diagnostic(0, 0, "internal error: the worker could not read the request")), 0), broken.result());
      assertEquals(6, fine.id());
      assertEquals("1", fine.result().stdout());
    }
  }

  @Test
  void a_run_stuck_in_a_library_call_is_answered_then_the_worker_exits_to_be_replaced() throws Exception {
    try (TestWorker worker = new TestWorker()) {
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
