package lab.exactlyonce.sandbox;

import lab.exactlyonce.TestJvm;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.RunTiming;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pool, the queue and the kill path, against a fake worker that speaks the real protocol. */
@Tag("sandbox")
class SandboxPoolTest {
  static final SandboxLimits SHORT = new SandboxLimits(500, 50_000_000L, 256L << 20, 64 * 1024, 64 * 1024, 1_000);

  Sandbox sandbox;

  @BeforeEach
  void start() throws InterruptedException {
    sandbox = new Sandbox(settings(3));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "workers ready");
  }

  static SandboxSettings settings(int workers) {
    return settings(workers, 0);
  }

  static SandboxSettings settings(int workers, int heavyNice) {
    SandboxSettings base = TestJvm.sandboxDefaults().withWorkers(workers).withLimits(SHORT)
        .withWorkerMain(FakeWorkerMain.class.getName());
    return new SandboxSettings(base.workers(), base.workerHeap(), base.workerStack(), base.workerJvmFlags(),
        base.limits(), 500, base.queueCapacity(), base.perClientCap(), 200, 1, heavyNice, 10_000, base.confinement(),
        base.workerMain(), base.startWithApp(), 1);
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  RunResult run(String client, String source) throws Exception {
    return sandbox.submit(RunRequest.run(client, source)).get(20, TimeUnit.SECONDS);
  }

  @Test
  void the_heavy_lanes_worker_is_lowered_in_every_thread_once_warm_and_the_others_keep_the_servers_priority()
      throws Exception {
    sandbox.close();
    sandbox = new Sandbox(settings(3, 10));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "workers ready");
    int own = WorkerPriority.niceOf(Path.of("/proc/thread-self"));
    List<Long> lowered = new ArrayList<>();
    for (long pid : sandbox.workerPids()) {
      ProcessHandle worker = ProcessHandle.of(pid).orElseThrow();
      if (WorkerPriority.threadsNotAt(worker, 10).isEmpty()) {
        lowered.add(pid);
      } else {
        assertEquals(List.of(), WorkerPriority.threadsNotAt(worker, own), "light worker " + pid + " kept nice " + own);
      }
    }
    assertEquals(1, lowered.size(), "one heavy-lane worker, all of its threads at nice 10: " + lowered);
    assertEquals("ok\n", run("anyone", "print ok").stdout());
  }

  @Test
  void the_spare_takes_a_retired_heavy_lane_workers_place_lowered_in_every_thread() throws Exception {
    sandbox.close();
    sandbox = new Sandbox(settings(3, 10));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "workers and the spare ready");
    List<Long> before = sandbox.workerPids();
    List<Long> heavyBefore = lowered(before);
    assertEquals(1, heavyBefore.size(), "one heavy-lane worker: " + before);

    // a client never seen runs on the heavy lane
    RunResult retiring = run("new-client", "print damage done\nretire");
    assertEquals("damage done\n", retiring.stdout());
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "a new spare ready");

    List<Long> after = sandbox.workerPids();
    List<Long> heavyAfter = lowered(after);
    assertEquals(1, heavyAfter.size(), "one heavy-lane worker: " + after);
    assertFalse(after.contains(heavyBefore.get(0)), "the retired worker is gone: " + after);
    assertTrue(before.contains(heavyAfter.get(0)), "the heavy lane's worker was already warm (the spare), not "
        + "started after the damage: " + before + " then " + after);
    assertEquals("ok\n", run("new-client-2", "print ok").stdout());
  }

  /** The workers all of whose threads run at nice 10. */
  private static List<Long> lowered(List<Long> pids) throws Exception {
    List<Long> lowered = new ArrayList<>();
    for (long pid : pids) {
      ProcessHandle worker = ProcessHandle.of(pid).orElseThrow();
      if (WorkerPriority.threadsNotAt(worker, 10).isEmpty()) lowered.add(pid);
    }
    return lowered;
  }

  @Test
  void a_run_is_counted_before_whoever_waits_on_its_answer_sees_it() throws Exception {
    AtomicInteger counted = new AtomicInteger();
    sandbox.onFinished(result -> counted.incrementAndGet());
    // registered after the sandbox's own bookkeeping, as the HTTP route's answer is: it must still find the run counted
    CompletableFuture<Integer> seen = sandbox.submit(RunRequest.run("a", "sleep 50\nprint hi")).thenApply(r -> counted.get());
    assertEquals(1, seen.get(20, TimeUnit.SECONDS));
  }

  @Test
  void a_run_returns_what_the_worker_answered() throws Exception {
    RunResult result = run("a", "print hello\nprint world");
    assertEquals(Outcome.OK, result.status());
    assertEquals("hello\nworld\n", result.stdout());
  }

  @Test
  void a_run_says_where_its_time_went() throws Exception {
    RunTiming timing = run("a", "sleep 40\nprint done").timing();
    assertTrue(timing.workerMs() >= 40, "the worker's own time covers the run: " + timing);
    assertTrue(timing.roundTripMs() >= timing.workerMs(), "the round trip covers the worker's time: " + timing);
    assertTrue(timing.queueMs() >= 0, timing::toString);
  }

  @Test
  void a_worker_stuck_past_the_hard_limit_is_killed_and_replaced() throws Exception {
    List<Long> before = sandbox.workerPids();
    RunResult result = run("a", "hang");
    assertEquals(Outcome.TIMEOUT, result.status());
    assertEquals("Timed out: the run was stopped after 2 s (the limit is 0.5 s of computing); a single long library call "
        + "cannot be interrupted, so its worker was replaced.", result.stderr());
    assertTrue(result.elapsedMs() >= 2000, "the run was stopped before its hard limit: " + result);
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "a replacement became ready");
    List<Long> after = sandbox.workerPids();
    assertEquals(4, after.size(), "three workers and the spare: " + after);
    assertNotEquals(before, after);
    assertEquals("fine\n", run("a", "print fine").stdout());
  }

  @Test
  void a_run_queued_behind_one_whose_worker_retires_goes_to_the_replacement() throws Exception {
    sandbox.close();
    sandbox = new Sandbox(settings(1));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)), "the worker is ready");
    List<Long> before = sandbox.workerPids();

    CompletableFuture<RunResult> retiring = sandbox.submit(RunRequest.run("attacker", "print damage done\nretire"));
    CompletableFuture<RunResult> behind = sandbox.submit(RunRequest.run("victim", "print fine"));

    assertEquals("damage done\n", retiring.get(20, TimeUnit.SECONDS).stdout());
    RunResult victim = behind.get(20, TimeUnit.SECONDS);
    assertEquals(Outcome.OK, victim.status(), victim::toString);
    assertEquals("fine\n", victim.stdout());
    List<Long> gone = before.stream().filter(pid -> !sandbox.workerPids().contains(pid)).toList();
    assertEquals(1, gone.size(), "the retiring worker is gone, the spare serves: " + before + " then "
        + sandbox.workerPids());
  }

  @Test
  void a_worker_that_dies_mid_run_is_an_internal_error_and_is_replaced() throws Exception {
    RunResult result = run("a", "crash");
    assertEquals(Outcome.INTERNAL_ERROR, result.status());
    assertEquals("Internal error: the sandbox worker stopped unexpectedly; the run was not finished. Try again.",
        result.stderr());
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
    assertEquals("after\n", run("b", "print after").stdout());
  }

  @Test
  void a_worker_that_answers_then_exits_never_receives_another_run() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertEquals(Outcome.TIMEOUT, run("a" + i, "answer-and-exit").status());
      RunResult next = run("b" + i, "print ok");   // a light client: it may be given the worker that is exiting
      assertEquals(Outcome.OK, next.status(), next.toString());
    }
  }

  @Test
  void concurrent_runs_see_only_their_own_output() throws Exception {
    List<CompletableFuture<RunResult>> results = new ArrayList<>();
    for (int i = 0; i < 32; i++) results.add(sandbox.submit(RunRequest.run("client-" + i, "print run " + i + "\nsleep 5")));
    for (int i = 0; i < 32; i++) {
      assertEquals("run " + i + "\n", results.get(i).get(20, TimeUnit.SECONDS).stdout());
    }
  }

  @Test
  void a_flooding_client_is_refused_and_another_client_goes_before_the_floods_waiting_run() throws Exception {
    // Three workers: the flooder's first two runs take a worker each, the third waits (a new client may not take the
    // last light worker); then the student's run arrives.
    List<CompletableFuture<RunResult>> flood = new ArrayList<>();
    for (int i = 0; i < 3; i++) flood.add(sandbox.submit(RunRequest.run("flooder", "sleep 600")));
    var busy = assertThrows(Sandbox.BusyException.class, () -> sandbox.submit(RunRequest.run("flooder", "sleep 300")));
    assertEquals("you already have 3 runs waiting or running (the limit is 3); wait for them to finish",
        busy.getMessage());
    assertTrue(busy.retryAfterSeconds() >= 1);
    assertEquals("me\n", run("student", "print me").stdout());
    assertFalse(flood.get(2).isDone(), "the flooder's waiting run went first: " + flood.get(2));
    for (var f : flood) assertEquals(Outcome.OK, f.get(10, TimeUnit.SECONDS).status());
  }

  @Test
  void heavy_clients_share_one_worker_and_leave_the_rest_to_others() throws Exception {
    // five students whose runs spin to the wall limit; once each has hit it, they are heavy
    List<CompletableFuture<RunResult>> loops = new ArrayList<>();
    for (int i = 0; i < 5; i++) loops.add(sandbox.submit(RunRequest.run("looper-" + i, "loop")));
    for (var f : loops) assertEquals(Outcome.TIMEOUT, f.get(20, TimeUnit.SECONDS).status());
    loops.clear();
    for (int i = 0; i < 5; i++) loops.add(sandbox.submit(RunRequest.run("looper-" + i, "loop")));
    await("one heavy run on the heavy lane").atMost(Duration.ofSeconds(20)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> sandbox.busyWorkers() == 1 && sandbox.waitingRuns() == 4);
    assertEquals(1, sandbox.busyWorkers(), "heavy runs take only the heavy lane's worker");
    // The heavy runs go one at a time, each spinning 0.5 s and resting as long, so the last ends seconds from now:
    // a light run that waited behind them would see all five finish first.
    assertEquals(Outcome.OK, run("light", "print x").status());
    long heavyStillGoing = loops.stream().filter(f -> !f.isDone()).count();
    assertTrue(heavyStillGoing > 0, "the light run waited behind all the heavy ones");
    for (int i = 0; i < 9; i++) assertEquals(Outcome.OK, run("light", "print x").status());
    for (var f : loops) assertEquals(Outcome.TIMEOUT, f.get(20, TimeUnit.SECONDS).status());
  }

  @Test
  void closing_answers_waiting_runs_and_ends_every_worker() throws Exception {
    List<Long> pids = sandbox.workerPids();
    var waiting = new ArrayList<CompletableFuture<RunResult>>();
    for (int i = 0; i < 6; i++) waiting.add(sandbox.submit(RunRequest.run("c" + i, "sleep 200")));
    sandbox.close();
    for (var f : waiting) {
      RunResult r = f.get(10, TimeUnit.SECONDS);
      assertTrue(r.status() == Outcome.OK || r.status() == Outcome.INTERNAL_ERROR, r.toString());
    }
    for (long pid : pids) {
      assertTrue(ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true), "worker " + pid + " ended");
    }
  }
}
