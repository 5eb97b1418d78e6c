package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.web.TooBusyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The real runs: one at a time on the engine process, the others waiting in a bounded queue. The engines are
 * deterministic for a scenario and its knob values, so a result is kept and handed to whoever asks for the same
 * settings, and a run already waiting or running for them is shared: a class pressing the button costs one run.
 */
final class RealRuns implements AutoCloseable {
  /** What a warm run is taken to last before any was measured: the Retry-After of a full queue, the page's estimate. */
  private static final long SECONDS_PER_RUN = 5;
  private static final int KEPT_RUNS = 1000;
  /** How many of the latest runs the typical run time is the median of. */
  private static final int TIMED_RUNS = 20;
  private static final Logger log = LoggerFactory.getLogger(RealRuns.class);

  enum Status { QUEUED, RUNNING, DONE, FAILED }

  /** One run as a client sees it. {@code position} is its place in the queue, 1 next; 0 once it runs. */
  record View(String id, String status, String phase, int position, JsonNode result, String error) {}

  private final ScenarioRunner engines;
  private final int queueLength;
  private final SecureRandom random = new SecureRandom();
  private final ExecutorService worker = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "engine-lab-runs");
    thread.setDaemon(true);
    return thread;
  });
  private final ArrayDeque<Run> queue = new ArrayDeque<>();
  private final Map<String, Run> bySettings = new HashMap<>();
  private final Map<String, Run> byId = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Run> eldest) {
      return size() > KEPT_RUNS;
    }
  };

  /** Seconds the latest runs took on the engines (kept results and shared runs cost nothing), oldest first. */
  private final ArrayDeque<Double> seconds = new ArrayDeque<>();
  private boolean warming;

  RealRuns(ScenarioRunner engines, int queueLength) {
    this.engines = engines;
    this.queueLength = queueLength;
  }

  private static final class Run {
    final String id;
    final String key;
    final Scenario scenario;
    final Map<String, Object> knobs;
    final String client;
    volatile Status status = Status.QUEUED;
    volatile String phase = "queued";
    volatile JsonNode result;
    volatile String error;

    Run(String id, String key, Scenario scenario, Map<String, Object> knobs, String client) {
      this.id = id;
      this.key = key;
      this.scenario = scenario;
      this.knobs = knobs;
      this.client = client;
    }
  }

  /**
   * The run for these settings: the kept or shared one, or a new one in the queue. One client (an address) may have
   * at most half the queue waiting, so no one fills it for everyone else.
   */
  synchronized View submit(Scenario scenario, Map<String, Object> knobs, String client) {
    String key = scenario.id() + knobs;
    Run shared = bySettings.get(key);
    if (shared != null) return view(shared);
    // The head of the queue, when nothing runs, is being picked up: it is not waiting.
    long own = queue.stream().skip(running() ? 0 : 1).filter(r -> r.client.equals(client)).count();
    if (own >= perClient()) {
      throw new Busy("you have " + own + " real runs waiting already", typicalSeconds() * (queue.size() + 1));
    }
    if (queue.size() >= queueLength + (running() ? 0 : 1)) {
      throw new Busy("the engine lab's queue is full (" + queueLength + " runs waiting)",
          typicalSeconds() * (queue.size() + 1));
    }
    byte[] id = new byte[8];
    random.nextBytes(id);
    Run run = new Run(HexFormat.of().formatHex(id), key, scenario, knobs, client);
    bySettings.put(key, run);
    byId.put(run.id, run);
    queue.add(run);
    worker.execute(() -> execute(run));
    return view(run);
  }

  private int perClient() {
    return Math.max(1, (queueLength + 1) / 2);
  }

  synchronized Optional<View> find(String id) {
    return Optional.ofNullable(byId.get(id)).map(this::view);
  }

  private boolean running() {
    return bySettings.values().stream().anyMatch(r -> r.status == Status.RUNNING);
  }

  /**
   * Starts the engines and warms them with one run of {@code scenario}'s default settings, unless they are warm or
   * busy already, so that the first learner's run takes a warm run's time. Its result is kept like any run's when
   * none is kept for those settings.
   */
  synchronized void warmUp(Scenario scenario) {
    if (warming || engines.warm() || !queue.isEmpty() || running()) return;
    warming = true;
    Map<String, Object> knobs = scenario.knobValues(null);
    String key = scenario.id() + knobs;
    Run kept = bySettings.get(key);
    Run run = kept != null ? new Run("warm-up", key, scenario, knobs, "server") : null;
    if (run == null) {
      byte[] id = new byte[8];
      random.nextBytes(id);
      run = new Run(HexFormat.of().formatHex(id), key, scenario, knobs, "server");
      bySettings.put(key, run);
      byId.put(run.id, run);
    }
    Run warmUp = run;
    worker.execute(() -> {
      try {
        execute(warmUp);
      } finally {
        synchronized (this) {
          warming = false;
        }
      }
    });
  }

  /** Whether the engines are running and warm, or are being warmed up now. */
  synchronized String engines() {
    return warming ? "warming" : engines.warm() ? "warm" : "stopped";
  }

  /** The median of the latest runs' times on the engines, in whole seconds; a guess before any was measured. */
  synchronized long typicalSeconds() {
    if (seconds.isEmpty()) return SECONDS_PER_RUN;
    double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return Math.max(1, Math.round(sorted[sorted.length / 2]));
  }

  private void execute(Run run) {
    synchronized (this) {
      queue.remove(run);
      run.status = Status.RUNNING;
    }
    long start = System.nanoTime();
    try {
      run.result = engines.run(run.scenario.id(), run.knobs, phase -> run.phase = phase);
      synchronized (this) {
        if (seconds.size() == TIMED_RUNS) seconds.removeFirst();
        seconds.addLast((System.nanoTime() - start) / 1e9);
      }
      run.phase = "done";
      run.status = Status.DONE;
      renewIfIdle();
    } catch (EngineProcess.EngineFailure e) {
      if ("server".equals(run.client)) log.warn("warming up the engine lab failed: {}", e.getMessage());
      run.error = e.getMessage();
      run.phase = "failed";
      run.status = Status.FAILED;
      synchronized (this) {
        bySettings.remove(run.key); // the next press tries again
      }
    }
  }

  /** After a run, on the runs' own thread: fresh engines when the current ones are worn and nobody waits. */
  private void renewIfIdle() {
    synchronized (this) {
      if (!queue.isEmpty()) return;
    }
    try {
      engines.renewIfWorn();
    } catch (EngineProcess.EngineFailure e) {
      log.warn("renewing the engine lab's process failed; the next run starts it: {}", e.getMessage());
    }
  }

  private View view(Run run) {
    int position = 0;
    int i = 1;
    for (Run waiting : queue) {
      if (waiting == run) position = i;
      i++;
    }
    return new View(run.id, run.status.name().toLowerCase(), run.phase, position, run.result, run.error);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    engines.close();
  }

  /** The queue is full: 429 with Retry-After. */
  static final class Busy extends TooBusyException {
    Busy(String message, long retryAfterSeconds) {
      super(message, retryAfterSeconds);
    }
  }
}
