package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.RunTiming;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.SnippetRunner;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The sandbox engine run in the test JVM itself, one run at a time, for tests of features that only need a run's
 * answer (pages, HTTP routes, the quiz, the classroom): the same {@link SnippetRunner} a worker JVM uses compiles and
 * runs each snippet, with the configured limits, so outputs, verdicts and compile errors are the real ones, without a
 * worker JVM to start and warm up. It is no sandbox: only trusted test sources may run in it, and what the sandbox
 * itself promises (confinement, the fair queue and its caps, killing and replacing workers) is tried on real workers
 * in the sandbox tier.
 */
public final class InProcessSandbox implements SandboxService {
  private final SandboxSettings settings;
  private final ExecutorService runs;
  private final List<Consumer<RunResult>> finishedListeners = new CopyOnWriteArrayList<>();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicInteger busy = new AtomicInteger();
  /** Replaced when a run leaves it unfit for others, as a worker JVM would be; used on the one run thread only. */
  private SnippetRunner runner = new SnippetRunner();

  public InProcessSandbox(SandboxSettings settings) {
    this.settings = settings;
    ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "in-process-sandbox");
      t.setDaemon(true);
      return t;
    });
    // Now, on the thread that makes the app: a shared app's run thread (and the runs' own threads) then belong to the
    // shared fixtures, not to whichever test class sends the first run.
    pool.prestartAllCoreThreads();
    this.runs = pool;
  }

  @Override
  public CompletableFuture<RunResult> submit(RunRequest request) {
    long submitted = System.nanoTime();
    waiting.incrementAndGet();
    CompletableFuture<RunResult> result;
    try {
      result = CompletableFuture.supplyAsync(() -> run(request, submitted), runs);
    } catch (RejectedExecutionException e) {
      waiting.decrementAndGet();
      return CompletableFuture.completedFuture(new RunResult(Outcome.INTERNAL_ERROR, "",
          "the server is shutting down; try again in a moment", List.of(), 0));
    }
    return result.whenComplete((r, e) -> {
      if (r != null) finishedListeners.forEach(listener -> listener.accept(r));
    });
  }

  private RunResult run(RunRequest request, long submitted) {
    waiting.decrementAndGet();
    busy.incrementAndGet();
    long started = System.nanoTime();
    try {
      RunResult r = runner.run(request.source(), settings.limits(), request.check().orElse(null));
      if (runner.unhealthyBecause() != null) runner = new SnippetRunner();
      long now = System.nanoTime();
      return (request.check().isEmpty() ? r.withoutCheck() : r)
          .withTiming(RunTiming.ofNanos(started - submitted, now - started, now - started));
    } finally {
      busy.decrementAndGet();
    }
  }

  @Override
  public SandboxLimits limits() {
    return settings.limits();
  }

  @Override
  public InProcessSandbox start() {
    return this;
  }

  /** Nothing confines it: it is the test JVM. */
  @Override
  public String confinementLevel() {
    return "none";
  }

  @Override
  public ConfinementReport confinement() {
    return new ConfinementReport(ConfinementLevel.NONE, "in-process (the test JVM)", "nothing confines it",
        List.of("every check: runs in the test JVM"), "");
  }

  @Override
  public void onFinished(Consumer<RunResult> listener) {
    finishedListeners.add(listener);
  }

  @Override
  public int waitingRuns() {
    return waiting.get();
  }

  @Override
  public int busyWorkers() {
    return busy.get();
  }

  @Override
  public int workers() {
    return 1;
  }

  @Override
  public void close() {
    runs.shutdown();
    try {
      if (!runs.awaitTermination(30, TimeUnit.SECONDS)) runs.shutdownNow();
    } catch (InterruptedException e) {
      runs.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
