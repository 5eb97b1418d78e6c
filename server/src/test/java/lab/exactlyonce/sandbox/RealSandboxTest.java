package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The service with the real engine in real worker JVMs: kills, isolation between runs, concurrency. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class RealSandboxTest {
  Sandbox sandbox;

  /**
   * Workers exactly as production starts them, C2 included (not {@code TestJvm}'s C1-only workers): the limits' rows
   * charge a run for the CPU its code takes, and under C1 the stalled run's loop took so long on a loaded host that
   * it met the clock limit it was meant to stay under. Four C2 JVMs (three workers and the spare) warming up while the
   * other test JVMs keep both cores busy took more than a minute in two of three clean-clone runs with the engine
   * lab's outbox tests beside them, so the wait takes the lifecycle method's whole budget (90 s) but a margin.
   */
  @BeforeAll
  void start() throws InterruptedException {
    sandbox = new Sandbox(SandboxSettings.defaults());
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(85)), "workers ready");
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  RunResult run(String client, String source) throws Exception {
    return sandbox.submit(RunRequest.run(client, source)).get(30, TimeUnit.SECONDS);
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
    long hardLimit = SandboxSettings.defaults().hardLimitMillis();
    assertTrue(tookMs < hardLimit + 2_000, "stopped at the hard limit (" + hardLimit + " ms) at the latest, took "
        + tookMs + " ms");
    await("the stuck worker replaced").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20)).until(() -> !sandbox.workerPids().containsAll(before));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "a replacement became ready");
    assertNotEquals(before, sandbox.workerPids(), "the stuck worker was replaced");
    RunResult after = run("bigint", main("    System.out.println(\"still here\");"));
    assertEquals(Outcome.OK, after.status(), after.toString());
    assertEquals("still here\n", after.stdout());
  }

  /**
   * A host too busy to give a worker any CPU, as a classroom laptop is in a rush: every worker is frozen
   * (SIGSTOP) while the run computes, for longer than the run's CPU budget, then thawed. The run is charged what it
   * computed, not how long the host kept it waiting, so a correct run still finishes; only a stall past the clock
   * limit ends it, with a message that blames the server and not the learner's code.
   */
  @Test
  void a_run_the_host_stalls_is_charged_its_cpu_time_and_only_the_clock_limit_ends_it() throws Exception {
    long cpuMillis = SandboxSettings.defaults().limits().cpuMillis();
    // About a quarter of a second of computing on an idle core: long enough to be stalled mid-run, short enough to
    // finish within the clock limit after a stall of the CPU budget even on a worker that gets a fifth of a core
    // (a new client's run is on the heavy lane, whose worker is niced, while other test JVMs keep both cores busy).
    String source = main("    double x = 0; for (int i = 0; i < 4_000_000; i++) x += Math.sin(i) * Math.cos(i);"
        + " System.out.println(x != 0);");
    assertEquals("true\n", run("stall", source).stdout(), "compiled and warm before the stalls");

    RunResult stalled = runStalledFor("stall", source, cpuMillis + 200);
    assertEquals(Outcome.OK, stalled.status(), stalled.toString());
    assertEquals("true\n", stalled.stdout());
    assertTrue(stalled.elapsedMs() > cpuMillis, "the stall outlasted the CPU budget: " + stalled);

    long wallMillis = SandboxSettings.defaults().limits().wallMillis();
    RunResult tooLong = runStalledFor("stall", source, wallMillis + 200);
    assertEquals(Outcome.TIMEOUT, tooLong.status(), tooLong.toString());
    assertEquals("stopped by the clock limit: " + wallMillis + " ms passed before the program finished (it may compute"
        + " for " + cpuMillis + " ms); the server is too busy to finish this run now; try again in a moment",
        tooLong.diagnostics().get(0).message());
  }

  /** Submits the run, and once a worker is computing it freezes every worker for {@code stallMillis}. */
  private RunResult runStalledFor(String client, String source, long stallMillis) throws Exception {
    List<ProcessHandle> workers = new ArrayList<>();
    for (long pid : sandbox.workerPids()) {
      ProcessHandle.of(pid).ifPresent(p -> {
        workers.add(p);
        p.descendants().forEach(workers::add);
      });
    }
    // The workers' own background work (the JIT compiling the warm-up run's code, a collection) must be over first,
    // or it passes for the run computing and the stall lands before the run has begun.
    long[] last = {cpuTicks(workers)};
    await("the workers idle").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ofMillis(200))
        .pollInterval(Duration.ofMillis(200)).until(() -> {
          long now = cpuTicks(workers);
          boolean quiet = now - last[0] <= 1;
          last[0] = now;
          return quiet;
        });
    CompletableFuture<RunResult> answer = sandbox.submit(RunRequest.run(client, source));
    // Polled often: the stall must begin while the run still computes, well before its CPU budget is spent. The run's
    // own thread is watched, not the workers' total: under load a worker's collector or JIT, or the compilation,
    // passed for the run computing and the stall landed before the run's clock had started.
    await("a worker computing the run").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(2)).until(() -> runThreadTicks(workers) >= 2 || answer.isDone());
    assertFalse(answer.isDone(), "the run was still computing when the host stalled");
    signal("-STOP", workers);
    try {
      Thread.sleep(stallMillis);   // the stall itself, not a wait for something
    } finally {
      signal("-CONT", workers);
    }
    return answer.get(30, TimeUnit.SECONDS);
  }

  /** CPU time of the threads that run a learner's main ({@code RunThread}, named "snippet-main"), in clock ticks. */
  private static long runThreadTicks(List<ProcessHandle> processes) throws IOException {
    long ticks = 0;
    for (ProcessHandle p : processes) {
      Path tasks = Path.of("/proc", Long.toString(p.pid()), "task");
      if (!Files.isDirectory(tasks)) continue;
      try (var threads = Files.list(tasks)) {
        for (Path task : threads.toList()) {
          try {
            if (!Files.readString(task.resolve("comm")).strip().equals("snippet-main")) continue;
            ticks += ticks(Files.readString(task.resolve("stat")));
          } catch (NoSuchFileException ended) {
            // the thread ended between the listing and the read: it is not the one computing
          }
        }
      }
    }
    return ticks;
  }

  /** User plus system CPU time in a /proc stat line (fields 14 and 15), in clock ticks. */
  private static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** User plus system CPU time of these processes, in clock ticks (/proc/PID/stat fields 14 and 15). */
  private static long cpuTicks(List<ProcessHandle> processes) throws IOException {
    long ticks = 0;
    for (ProcessHandle p : processes) {
      Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
      if (!Files.exists(stat)) continue;
      ticks += ticks(Files.readString(stat));
    }
    return ticks;
  }

  private static void signal(String signal, List<ProcessHandle> processes) throws Exception {
    List<String> command = new ArrayList<>(List.of("kill", signal));
    for (ProcessHandle p : processes) command.add(Long.toString(p.pid()));
    assertEquals(0, new ProcessBuilder(command).redirectErrorStream(true).start().waitFor());
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
      results.add(sandbox.submit(RunRequest.run("student-" + i, "public class S" + i + " {\n  static String me = \"student " + i
          + "\";\n  public static void main(String[] args) {\n    for (int k = 0; k < 3; k++) System.out.println(me + \" line \" + k);\n  }\n}\n")));
    }
    for (int i = 0; i < 32; i++) {
      RunResult r = results.get(i).get(60, TimeUnit.SECONDS);
      assertEquals(Outcome.OK, r.status(), r.toString());
      assertEquals("student " + i + " line 0\nstudent " + i + " line 1\nstudent " + i + " line 2\n", r.stdout());
    }
  }

  /**
   * Every real worker, seen from outside through /proc (a snippet itself cannot read files): on this machine (root,
   * bubblewrap installed) it runs hardened as a uid of its own from 64000-64999, in namespaces of its own, without
   * the server's environment, files or network.
   */
  @Test
  void workers_run_hardened_as_an_unprivileged_uid_in_namespaces_of_their_own() throws Exception {
    assertEquals(ConfinementLevel.HARDENED, sandbox.confinement().level(), sandbox.confinement().toString());
    assertEquals(List.of(), run("x", main("    System.out.println(1);")).diagnostics());
    Path marker = sandbox.tempRoot().resolve("server-only-marker");
    assertTrue(Files.exists(marker), "the self-check's marker is there for the server");
    for (long pid : sandbox.workerPids()) {
      long jvm = ProcessHandle.of(pid).orElseThrow().descendants()
          .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
          .findFirst().orElseThrow(() -> new AssertionError("no JVM under worker " + pid)).pid();
      Path proc = Path.of("/proc/" + jvm);
      List<String> status = Files.readAllLines(proc.resolve("status"));
      assertTrue(field(status, "Uid").matches("64[0-9]{3}"), "real uid: " + field(status, "Uid"));
      assertEquals("0000000000000000", field(status, "CapEff"));
      assertEquals("1", field(status, "NoNewPrivs"));
      assertEquals("2", field(status, "Seccomp"));
      for (String ns : List.of("net", "mnt", "pid", "user", "ipc", "uts")) {
        assertNotEquals(Files.readSymbolicLink(Path.of("/proc/self/ns/" + ns)),
            Files.readSymbolicLink(proc.resolve("ns/" + ns)), "worker " + jvm + " shares the server's " + ns + " namespace");
      }
      // no network interface but its own loopback
      String devices = Files.readString(proc.resolve("net/dev"));
      assertEquals(List.of("lo"), devices.lines().skip(2).map(l -> l.trim().split(":")[0]).toList());
      // its environment: only what the launcher sets
      Set<String> env = new TreeSet<>();
      for (String entry : Files.readString(proc.resolve("environ")).split("\0")) {
        if (!entry.isEmpty()) env.add(entry.substring(0, entry.indexOf('=')));
      }
      assertEquals(Set.of("LANG", "PATH", "PWD"), env);
      assertTrue(System.getenv().keySet().stream().anyMatch(k -> !env.contains(k)),
          "the server's own environment has more, which the worker did not get");
      // its root holds no server data: neither the marker nor this build's directory
      Path root = proc.resolve("root");
      assertFalse(Files.exists(root.resolve(marker.toString().substring(1))), "the marker is visible to the worker");
      assertFalse(Files.exists(root.resolve(Path.of("").toAbsolutePath().toString().substring(1))),
          "the server's working directory is visible to the worker");
      assertTrue(Files.isDirectory(root.resolve("tmp")), "its own /tmp");
      // a root with only the JDK, the libraries it loads, Debian's JDK configuration and the staged class path
      assertEquals(List.of("dev", "eolab", "etc", "lib", "lib64", "proc", "tmp", "usr"), list(root));
      assertEquals(List.of("lib", "lib64"), list(root.resolve("usr")));
      assertEquals(List.of("jvm", "x86_64-linux-gnu"), list(root.resolve("usr/lib")));
      assertEquals(List.of("java-17-openjdk"), list(root.resolve("etc")));
      // capped by its own cgroups (cgroup v1 pids and memory are writable for root here)
      String cgroups = Files.readString(proc.resolve("cgroup"));
      String group = sandbox.tempRoot().getFileName() + "/worker-";
      assertTrue(cgroups.lines().anyMatch(l -> l.contains(":pids:") && l.contains(group)), cgroups);
      assertTrue(cgroups.lines().anyMatch(l -> l.contains(":memory:") && l.contains(group)), cgroups);
      int threads = Integer.parseInt(field(status, "Threads"));
      assertTrue(threads < 100, "a warm worker runs " + threads + " threads, far below its cap of 512");
    }
  }

  private static List<String> list(Path dir) throws IOException {
    try (var entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static String field(List<String> status, String key) {
    return status.stream().filter(l -> l.startsWith(key + ":")).findFirst()
        .map(l -> l.substring(key.length() + 1).trim().split("\\s+")[0]).orElse("missing");
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
