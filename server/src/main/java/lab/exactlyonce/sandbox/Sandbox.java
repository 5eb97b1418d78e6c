package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.sandbox.confinement.HostTools;
import lab.exactlyonce.sandbox.engine.CheckSpec;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.RunTiming;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.WorkerRequest;
import lab.exactlyonce.sandbox.engine.WorkerResponse;
import lab.exactlyonce.web.TooBusyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Runs learners' Java in worker JVMs, never in the server's. Free of HTTP: {@link #submit} takes a {@link RunRequest}
 * and completes with a {@link RunResult}; a full queue refuses at once with {@link BusyException}.
 *
 * <p>Each run waits in the fair {@link RunQueue}, then goes to an idle worker with the run's limits. The worker
 * enforces the limits itself; if it has not answered {@code killGraceMillis} after the wall limit (a single long
 * library call that no instrumented loop check can interrupt), the server kills it, answers {@code timeout}, and
 * the pool starts a replacement. A worker that dies mid-run is logged and answered as {@code internal_error}.
 */
public final class Sandbox implements SandboxService {
  private static final Logger log = LoggerFactory.getLogger(Sandbox.class);
  /** A worker that dies this soon after taking a run most likely died of its previous run: retry elsewhere once. */
  private static final long RETRY_WITHIN_MILLIS = 250;

  private final SandboxSettings settings;
  private final ObjectMapper json = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sandbox-timer");
    t.setDaemon(true);
    return t;
  });
  private final WorkerPool pool;
  private final RunQueue<Job> queue;
  private final AtomicLong ids = new AtomicLong();
  /** Runs of new clients on light workers; guarded by this. */
  private int newOnLightWorkers;
  /** Recent mean run time, for Retry-After. */
  private volatile double meanRunMillis = 50;
  private volatile boolean started;
  private volatile boolean closed;
  /** Runs on a worker now (for metrics). */
  private final AtomicInteger busy = new AtomicInteger();
  private final List<Consumer<RunResult>> finishedListeners =
      new CopyOnWriteArrayList<>();

  public Sandbox(SandboxSettings settings) {
    this(settings, HostTools.installed());
  }

  /** With the confinement tools at other paths (tests hand it a host where the strong launchers fail). */
  Sandbox(SandboxSettings settings, HostTools tools) {
    this.settings = settings;
    this.queue = new RunQueue<>(settings.queueCapacity(), settings.perClientCap());
    this.pool = new WorkerPool(settings, tools, json, timer, this::dispatch);
  }

  /**
   * Checks the confinement (a second or so), then starts the workers in the background; runs submitted before they
   * are ready wait in the queue.
   *
   * @throws lab.exactlyonce.sandbox.confinement.ConfinementException if this host cannot confine workers as the settings insist
   */
  @Override
  public synchronized Sandbox start() {
    if (!started && !closed) { // a run that arrives while the app stops must not start workers nobody will end
      pool.start();
      started = true;
    }
    return this;
  }

  public SandboxSettings settings() {
    return settings;
  }

  @Override
  public int workers() {
    return settings.workers();
  }

  /** Which OS confinement the workers run under (what the start-up self-check found). */
  @Override
  public ConfinementReport confinement() {
    return pool.confinement();
  }

  @Override
  public String confinementLevel() {
    return started ? pool.confinement().level().id() : "unchecked";
  }

  /** The process id of the warm spare (which takes no runs until it replaces a worker), if one waits; for tests. */
  OptionalLong sparePid() {
    return pool.sparePid();
  }

  /** The sandbox's own temporary directory; for tests. */
  Path tempRoot() {
    return pool.tempRoot();
  }

  @Override
  public void onFinished(Consumer<RunResult> listener) {
    finishedListeners.add(listener);
  }

  @Override
  public synchronized int waitingRuns() {
    return queue.waiting();
  }

  @Override
  public int busyWorkers() {
    return busy.get();
  }

  /** Waits until every worker is warm and idle; for tests and the benchmark. */
  public boolean awaitReady(Duration timeout) throws InterruptedException {
    start();
    return pool.awaitAllIdle(timeout);
  }

  /** Whether the warm spare that takes the place of the next worker to end is ready; for tests. */
  boolean hasSpare() {
    return pool.hasSpare();
  }

  /**
   * The process ids of the live workers, the spare's too (their confinement's outermost process where they are
   * wrapped).
   */
  public List<Long> workerPids() {
    return pool.pids();
  }

  /**
   * Queues the request for its client. An exercise check's worker compiles the learner's source on its own, loads
   * the exercise's trusted code apart from it, and the checker's verdicts come back in {@link RunResult#check()}; it
   * waits in the same fair queue as a run.
   *
   * @throws BusyException if the client or the whole queue is at its cap
   */
  @Override
  public CompletableFuture<RunResult> submit(RunRequest request) {
    return enqueue(request.clientKey(), request.source(), request.check().orElse(null));
  }

  @Override
  public SandboxLimits limits() {
    return settings.limits();
  }

  private CompletableFuture<RunResult> enqueue(String clientKey, String source, CheckSpec check) {
    start();
    Job job = new Job(ids.incrementAndGet(), clientKey, source, check,
        result -> finishedListeners.forEach(listener -> listener.accept(result)));
    if (closed) {
      job.settle(internalError("the server is shutting down; try again in a moment", 0));
      return job.result;
    }
    Optional<RunQueue.Refusal> refusal;
    synchronized (this) {
      refusal = queue.offer(clientKey, job);
    }
    if (refusal.isPresent()) {
      throw new BusyException(refusal.get().reason(), retryAfterSeconds(refusal.get().runsAhead()));
    }
    ScheduledFuture<?> giveUp = timer.schedule(() -> abandon(job), settings.queueWaitMillis(), TimeUnit.MILLISECONDS);
    job.result.whenComplete((r, e) -> giveUp.cancel(false));
    dispatch();
    return job.result;
  }

  /** Starts as many waiting runs as there are idle workers, in the queue's fair order. */
  private void dispatch() {
    List<Job> toStart = new ArrayList<>();
    List<WorkerProcess> workers = new ArrayList<>();
    synchronized (this) {
      if (closed) return;
      while (pool.idleCount() > 0) {
        boolean lightIdle = pool.hasIdleForLight();
        boolean heavyIdle = pool.hasIdleForHeavy();
        // New clients (code not seen yet) may hold all but one of the light workers; the heavy lane takes them too.
        boolean newOnLight = lightIdle && newOnLightWorkers < pool.lightLaneSize() - 1;
        Optional<RunQueue.Taken<Job>> taken = queue.next(kind -> switch (kind) {
          case LIGHT -> lightIdle;
          case NEW -> heavyIdle || newOnLight;
          case HEAVY -> heavyIdle;
        });
        if (taken.isEmpty()) break;
        RunQueue.Kind kind = taken.get().kind();
        boolean heavyLane = kind == RunQueue.Kind.HEAVY || kind == RunQueue.Kind.NEW && heavyIdle;
        WorkerProcess worker = pool.takeIdle(heavyLane);
        if (worker == null) {   // the worker died just now: put the run back at the head of the queue
          queue.release(taken.get().client());
          queue.offerFirst(taken.get().client(), taken.get().run());
          break;
        }
        if (kind == RunQueue.Kind.NEW && !heavyLane) {
          taken.get().run().countedAsNewOnLight = true;
          newOnLightWorkers++;
        }
        Job job = taken.get().run();
        toStart.add(job);
        workers.add(worker);
      }
    }
    for (int i = 0; i < toStart.size(); i++) execute(toStart.get(i), workers.get(i));
  }

  private void execute(Job job, WorkerProcess worker) {
    job.dispatchNanos = System.nanoTime();
    busy.incrementAndGet();
    CompletableFuture<WorkerResponse> answer = worker.send(
        new WorkerRequest(job.id, job.source, settings.limits(), job.check));
    long hardLimit = settings.hardLimitMillis();
    ScheduledFuture<?> killer = timer.schedule(() -> {
      if (answer.isDone()) return;
      log.info("sandbox: run {} of {} passed the hard limit of {} ms; killing {}", job.id, job.client, hardLimit,
          worker);
      worker.kill();
      finish(job, worker, new RunResult(Outcome.TIMEOUT, "", "Timed out: the run was stopped after "
          + seconds(hardLimit) + " s (the limit is " + seconds(settings.limits().cpuMillis()) + " s of computing); a single long "
          + "library call cannot be interrupted, so its worker was replaced.", List.of(), elapsedSince(job.dispatchNanos)), false);
    }, hardLimit, TimeUnit.MILLISECONDS);
    answer.whenComplete((response, error) -> {
      killer.cancel(false);
      if (error != null) {
        if (worker.wasKilled()) return;   // the killer has answered already
        if (!job.retried && (worker.mayExit() || elapsedSince(job.dispatchNanos) < RETRY_WITHIN_MILLIS)) {
          // The worker exited right after answering its previous run, as the engine does when that run left a
          // thread it could not stop; this run most likely never started. Give it the next free worker, once.
          job.retried = true;
          busy.decrementAndGet();
          synchronized (this) {
            uncountNew(job);
            queue.release(job.client);
            queue.offerFirst(job.client, job);
          }
          dispatch();
          return;
        }
        log.error("sandbox: run {} of {} lost its worker: {}; last stderr lines:\n{}", job.id, job.client,
            error.getMessage(), worker.stderrTail());
        finish(job, worker, internalError("the sandbox worker stopped unexpectedly; the run was not finished. "
            + "Try again.", elapsedSince(job.dispatchNanos)), false);
        return;
      }
      // Only a check asked for verdicts: whatever else a worker says about one is not believed.
      RunResult result = (job.check == null ? response.result().withoutCheck() : response.result())
          .withTiming(RunTiming.ofNanos(job.dispatchNanos - job.submitNanos, response.workerNanos(),
              System.nanoTime() - job.dispatchNanos));
      // The engine exits (status 3) right after answering a run that left it unfit for other runs (a thread it
      // could not stop, a stack overflow, running out of memory); it says so in the answer when it knows.
      worker.mayExit(response.retiring() || result.status() == Outcome.TIMEOUT
          || result.status() == Outcome.MEMORY_LIMIT || result.status() == Outcome.INTERNAL_ERROR);
      if (result.status() == Outcome.INTERNAL_ERROR) {
        log.error("sandbox: worker {} reported an internal error for run {}: {}", worker, job.id, result.stderr());
      }
      if (response.retiring()) log.info("sandbox: {} retires after run {} of {}", worker, job.id, job.client);
      // A retiring worker never goes back to the pool, so no run is sent to a process that is about to exit.
      finish(job, worker, result, !response.retiring());
    });
  }

  /**
   * Books the finished run, gives the worker back and dispatches the next run, and only then completes the run's
   * future: what callers chain onto it (writing the answer, recording an exercise check in the database) runs on
   * this thread, and must not hold the worker out of the pool meanwhile.
   */
  private void finish(Job job, WorkerProcess worker, RunResult result, boolean workerUsable) {
    if (!job.claim()) return;
    try {
      busy.decrementAndGet();
      // Time on the worker, not in the queue: waiting behind others must not make a client heavy.
      long took = elapsedSince(job.dispatchNanos);
      meanRunMillis = meanRunMillis * 0.9 + took * 0.1;
      boolean heavy = switch (result.status()) {
        case TIMEOUT, MEMORY_LIMIT, INTERNAL_ERROR -> true;
        default -> took > settings.heavyAfterMillis();
      };
      synchronized (this) {
        uncountNew(job);
        queue.finished(job.client, heavy);
      }
      if (!workerUsable) {
        pool.retire(worker);
      } else if (heavy && worker.lowPriority()) {
        // Heavy lane duty cycle: rest as long as the run took (at most 1 s), so runaway code holds at most half a
        // core however many students keep it coming.
        timer.schedule(() -> pool.giveBack(worker), Math.min(took, 1_000), TimeUnit.MILLISECONDS);
      } else {
        pool.giveBack(worker);
      }
      dispatch();
    } finally {
      job.complete(result);
    }
  }

  private void uncountNew(Job job) {
    if (job.countedAsNewOnLight) {
      job.countedAsNewOnLight = false;
      newOnLightWorkers--;
    }
  }

  private void abandon(Job job) {
    boolean wasWaiting;
    synchronized (this) {
      wasWaiting = queue.remove(job.client, job);
    }
    if (wasWaiting) {
      log.warn("sandbox: run {} of {} waited {} ms without a worker", job.id, job.client, settings.queueWaitMillis());
      job.settle(internalError("the sandbox had no free worker for " + seconds(settings.queueWaitMillis())
          + " s; try again in a moment", elapsedMillis(job)));
    }
  }

  private long retryAfterSeconds(int runsAhead) {
    double waitMillis = (runsAhead + 1) * meanRunMillis / Math.max(1, settings.workers());
    return Math.max(1, (long) Math.ceil(waitMillis / 1000));
  }

  /** Stops taking runs, answers the waiting ones, and ends every worker. */
  @Override
  public void close() {
    List<Job> waiting = new ArrayList<>();
    synchronized (this) {
      if (closed) return;
      closed = true;
      queue.drain().values().forEach(waiting::addAll);
    }
    waiting.forEach(job -> job.settle(internalError("the server is shutting down; try again in a moment", 0)));
    pool.close();
    timer.shutdownNow();
  }

  private static RunResult internalError(String message, long elapsedMs) {
    return new RunResult(Outcome.INTERNAL_ERROR, "", "Internal error: " + message, List.of(), elapsedMs);
  }

  private static long elapsedSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static long elapsedMillis(Job job) {
    return (System.nanoTime() - job.submitNanos) / 1_000_000;
  }

  private static String seconds(long millis) {
    return millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.format(Locale.ROOT, "%.1f", millis / 1000.0);
  }

  /** The queue or this client is at its cap; try again after {@code retryAfterSeconds}. */
  public static final class BusyException extends TooBusyException {
    BusyException(String message, long retryAfterSeconds) {
      super(message, retryAfterSeconds);
    }
  }

  private static final class Job {
    final long id;
    final String client;
    final String source;
    final CheckSpec check;
    /** Told of the result before {@link #result} completes, so whoever waits on the run finds it counted. */
    final Consumer<RunResult> listeners;
    final long submitNanos = System.nanoTime();
    final CompletableFuture<RunResult> result = new CompletableFuture<>();
    final AtomicBoolean settled = new AtomicBoolean();
    volatile boolean retried;
    /** Guarded by the sandbox's lock. */
    boolean countedAsNewOnLight;
    volatile long dispatchNanos;

    Job(long id, String client, String source, CheckSpec check, Consumer<RunResult> listeners) {
      this.id = id;
      this.client = client;
      this.source = source;
      this.check = check;
      this.listeners = listeners;
    }

    /** Only for the caller that {@link #claim}ed the job. */
    void complete(RunResult r) {
      try {
        listeners.accept(r);
      } catch (RuntimeException e) {
        log.error("sandbox: a listener failed on run {}: {}", id, e.toString());
      } finally {
        result.complete(r);
      }
    }

    /** True for the one caller that may settle this job; it must then complete {@link #result}. */
    boolean claim() {
      return settled.compareAndSet(false, true);
    }

    boolean settle(RunResult r) {
      if (!claim()) return false;
      complete(r);
      return true;
    }
  }
}
