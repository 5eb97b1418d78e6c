package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The service with the real engine in real worker JVMs: kills, isolation between runs, concurrency. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealSandboxTest {
  Sandbox sandbox;

  @BeforeAll
  void start() throws InterruptedException {
    sandbox = new Sandbox(SandboxSettings.defaults());
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "workers ready");
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  RunResult run(String client, String source) throws Exception {
    return sandbox.run(client, source).get(30, TimeUnit.SECONDS);
  }

  static String main(String body) {
    return "public class Main {\n  public static void main(String[] args) {\n" + body + "\n  }\n}\n";
  }

  @Test
  void a_run_stuck_in_a_long_library_call_times_out_and_its_worker_is_replaced() throws Exception {
    List<Long> before = sandbox.workerPids();
    long start = System.nanoTime();
    // One call into BigInteger that runs for tens of seconds (3,000,000 bits took 1.5 s on an idle box): no instrumented loop check inside it.
    RunResult stuck = run("bigint", main(
        "    System.out.println(java.math.BigInteger.ONE.shiftLeft(20000000).toString().length());"));
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertEquals(Outcome.TIMEOUT, stuck.status(), stuck.toString());
    assertTrue(tookMs < 5_500, "stopped at the hard limit (3.5 s) at the latest, took " + tookMs + " ms");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (sandbox.workerPids().containsAll(before) && System.nanoTime() < deadline) Thread.sleep(20);
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "a replacement became ready");
    assertNotEquals(before, sandbox.workerPids(), "the stuck worker was replaced");
    RunResult after = run("bigint", main("    System.out.println(\"still here\");"));
    assertEquals(Outcome.OK, after.status(), after.toString());
    assertEquals("still here\n", after.stdout());
  }

  @Test
  void an_infinite_loop_times_out_and_the_next_run_is_fine() throws Exception {
    RunResult loop = run("loop", main("    while (true) {}"));
    assertEquals(Outcome.TIMEOUT, loop.status(), loop.toString());
    assertEquals("ok\n", run("loop", main("    System.out.println(\"ok\");")).stdout());
  }

  @Test
  void static_state_does_not_leak_from_one_run_to_the_next() throws Exception {
    String source = "public class Counter {\n  static int runs;\n  public static void main(String[] args) {\n"
        + "    runs++;\n    System.out.println(\"runs=\" + runs);\n  }\n}\n";
    for (int i = 0; i < 8; i++) {   // more runs than workers: every worker sees it at least twice
      RunResult r = run("counter", source);
      assertEquals("runs=1\n", r.stdout(), r.toString());
    }
  }

  @Test
  void thirty_two_concurrent_runs_each_see_only_their_own_output() throws Exception {
    List<CompletableFuture<RunResult>> results = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      results.add(sandbox.run("student-" + i, "public class S" + i + " {\n  static String me = \"student " + i
          + "\";\n  public static void main(String[] args) {\n    for (int k = 0; k < 3; k++) System.out.println(me + \" line \" + k);\n  }\n}\n"));
    }
    for (int i = 0; i < 32; i++) {
      RunResult r = results.get(i).get(60, TimeUnit.SECONDS);
      assertEquals(Outcome.OK, r.status(), r.toString());
      assertEquals("student " + i + " line 0\nstudent " + i + " line 1\nstudent " + i + " line 2\n", r.stdout());
    }
  }

  @Test
  void workers_run_in_their_own_network_namespace_where_the_os_allows_it() throws Exception {
    if (!sandbox.confinement().startsWith("confinement: network namespace")) {
      assertEquals("confinement: none available ('unshare --net' is not allowed here); workers are plain child "
          + "processes", sandbox.confinement());
      return;
    }
    String ours = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/net")).toString();
    for (long pid : sandbox.workerPids()) {
      String theirs = java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/" + pid + "/ns/net")).toString();
      assertNotEquals(ours, theirs, "worker " + pid + " shares the server's network namespace");
      // no network interface but its own loopback
      String devices = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/net/dev"));
      assertEquals(List.of("lo"), devices.lines().skip(2).map(l -> l.trim().split(":")[0]).toList());
    }
  }

  @Test
  void a_compile_error_names_its_line() throws Exception {
    RunResult r = run("compile", main("    int x = \"text\";"));
    assertEquals(Outcome.COMPILE_ERROR, r.status(), r.toString());
    assertEquals(3, r.diagnostics().get(0).line());
  }

  @Test
  void a_forbidden_call_is_rejected() throws Exception {
    RunResult r = run("exit", main("    System.exit(0);"));
    assertEquals(Outcome.REJECTED, r.status(), r.toString());
  }
}
