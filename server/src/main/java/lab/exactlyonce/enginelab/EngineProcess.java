package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The engine lab's JVM: started by the first run, kept warm for the next ones, replaced by a fresh one after
 * {@link #RUNS_PER_PROCESS} runs, ended after an idle period or with the app. It runs trusted scenarios only and
 * shares nothing with the app but two pipes: a JSON request a line on its stdin, JSON lines back on its stdout (its
 * logs go to a file in its own temp dir, removed when it ends).
 */
final class EngineProcess implements ScenarioRunner {
  /** A cold run starts a broker and a Flink cluster (about 10 s here); no scenario takes a minute. */
  static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

  /**
   * How many runs one process serves before {@link #renewIfWorn} replaces it. The engines keep a little of every run
   * on their heap (metrics samples, finished jobs' records: 0.1 to 0.3 MB a run, measured with {@code EngineMemory}),
   * so a process kept warm through a busy day would fill its heap; 200 runs stay well inside it.
   */
  static final int RUNS_PER_PROCESS = 200;

  private final EngineLabSettings settings;
  private final int runsPerProcess;
  /** Runs the running process has served. */
  private int served;
  private final ObjectMapper json = new ObjectMapper();
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "engine-lab-timer");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Process process;
  private Path tempDir;
  private Writer in;
  private BufferedReader out;
  private ScheduledFuture<?> idle;

  EngineProcess(EngineLabSettings settings) {
    this(settings, RUNS_PER_PROCESS);
  }

  EngineProcess(EngineLabSettings settings, int runsPerProcess) {
    this.settings = settings;
    this.runsPerProcess = runsPerProcess;
  }

  @Override
  public boolean warm() {
    Process p = process;
    return p != null && p.isAlive();
  }

  /** The running process's id, for the memory benchmark to read its footprint; empty when none runs. */
  OptionalLong pid() {
    Process p = process;
    return p != null && p.isAlive() ? OptionalLong.of(p.pid()) : OptionalLong.empty();
  }

  /** Runs one scenario; the answer is its result object. Phases are reported as the engines report them. */
  @Override
  public synchronized JsonNode run(String scenario, Map<String, Object> knobs, Consumer<String> phase) throws EngineFailure {
    if (idle != null) idle.cancel(false);
    try {
      if (process == null || !process.isAlive()) start();
      served++;
      in.write(json.writeValueAsString(Map.of("scenario", scenario, "knobs", knobs)) + "\n");
      in.flush();
      Process running = process;
      ScheduledFuture<?> watchdog = timers.schedule(running::destroyForcibly, RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      try {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          JsonNode message = json.readTree(line);
          if (message.has("phase")) phase.accept(message.get("phase").asText());
          else if (message.has("result")) return message.get("result");
          else if (message.has("failed")) throw new EngineFailure("the engines failed: " + message.get("failed").asText());
        }
      } finally {
        watchdog.cancel(false);
      }
      stop();
      throw new EngineFailure("the engine process ended during the run");
    } catch (IOException e) {
      stop();
      throw new EngineFailure("the engine process could not be reached: " + e.getMessage());
    } finally {
      idle = timers.schedule(this::stop, settings.idleStop().toSeconds(), TimeUnit.SECONDS);
    }
  }

  /**
   * Replaces the process when it has served {@link #RUNS_PER_PROCESS} runs: ends it, starts a fresh one and has it
   * start its broker and cluster, so the next learner's run is a warm one. Called between runs, when nobody waits.
   */
  @Override
  public synchronized void renewIfWorn() throws EngineFailure {
    if (served < runsPerProcess || !warm()) return;
    stop();
    run("start", Map.of(), phase -> { });
    served = 0;
  }

  private void start() throws IOException {
    served = 0;
    tempDir = Files.createTempDirectory("eolab-engines");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // Serial GC and C1 only: half the CPU of the defaults for a run this short.
    ProcessBuilder builder = new ProcessBuilder(List.of(java, "-Xmx" + settings.maxHeapMb() + "m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tempDir,
        "-jar", settings.jar().toAbsolutePath().toString()));
    builder.redirectError(tempDir.resolve("engines.log").toFile());
    builder.directory(tempDir.toFile());
    process = builder.start();
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Ends the process (closing its stdin ends it cleanly) and removes its temp dir. */
  synchronized void stop() {
    if (process == null) return;
    try {
      in.close();
    } catch (IOException e) {
      // it is going anyway
    }
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    process = null;
    deleteTree(tempDir);
  }

  /** Ends the process at once, even during a run (which then fails), so the app's stop does not wait for it. */
  @Override
  public void close() {
    Process running = process;
    if (running != null) running.destroyForcibly();
    stop();
    timers.shutdownNow();
  }

  private static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("could not remove the engine lab's temp dir " + dir, e);
    }
  }

  /** A run that did not give a result: the engines failed, or the process ended or hung. */
  static final class EngineFailure extends Exception {
    EngineFailure(String message) {
      super(message);
    }
  }
}
