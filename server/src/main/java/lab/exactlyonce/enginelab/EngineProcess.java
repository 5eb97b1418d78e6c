package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.EngineConfinement;
import lab.exactlyonce.sandbox.confinement.HostTools;
import lab.exactlyonce.sandbox.confinement.Launcher;
import lab.exactlyonce.store.TempDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The engine lab's JVM: started by the first run, kept warm for the next ones, replaced by a fresh one after
 * {@link #RUNS_PER_PROCESS} runs, ended after an idle period or with the app. It runs trusted scenarios only and
 * shares nothing with the app but two pipes: a JSON request a line on its stdin, JSON lines back on its stdout (its
 * logs go to a file beside its temp dir, removed when it ends). It runs confined ({@link EngineConfinement}): its
 * own uid, temp dir and network namespace, so its broker and Flink's REST endpoint, which ask nobody for a password,
 * are out of every local account's reach; the pipes are the only way in.
 */
final class EngineProcess implements ScenarioRunner {
  private static final Logger log = LoggerFactory.getLogger(EngineProcess.class);

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
  /** This object's directory: the staged class path, and each process's temp dir and log. */
  private Path root;
  private EngineConfinement confinement;
  private Launcher.Cell cell;
  private Path logFile;
  private int started;
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

  /**
   * The engine JVM's id (not that of the {@code unshare} around it), for the memory benchmark to read its footprint
   * and the tests to look at it; empty when none runs.
   */
  OptionalLong pid() {
    Process p = process;
    if (p == null || !p.isAlive()) return OptionalLong.empty();
    // where the JVM's command is not readable (a JVM not dumpable, seen by an unprivileged server) the innermost one
    return OptionalLong.of(Launcher.jvm(p.toHandle())
        .or(() -> p.descendants().filter(d -> d.children().findAny().isEmpty()).findFirst())
        .map(ProcessHandle::pid).orElse(p.pid()));
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
      ScheduledFuture<?> watchdog =
          timers.schedule(() -> Launcher.kill(running), RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      try {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (!line.startsWith("{")) { // not the protocol: something under the engines wrote to their stdout
            log.warn("engine lab: the engine process printed {}", line.length() <= 200 ? line : line.substring(0, 200));
            continue;
          }
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
    if (confinement == null) confine();
    started++;
    Path dir = Files.createDirectory(root.resolve("engines-" + started));
    // the server's alone: the engines' log names their run's topics, and /tmp lets anyone see the directory's name
    logFile = Files.createFile(root.resolve("engines-" + started + ".log"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    cell = confinement.open(dir);   // its own: owned by the engines' uid and closed to everyone else
    try {
      // Serial GC and C1 only: half the CPU of the defaults for a run this short. The JVM's own warnings go to
      // stderr: its stdout is the protocol.
      // nothing of the server's environment (its secrets) reaches the engines
      ProcessBuilder builder = Launcher.processBuilder(confinement.command(cell, List.of("-Xmx" + settings.maxHeapMb()
          + "m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr"),
          mainClass(settings.jar())));
      builder.redirectError(logFile.toFile());
      builder.directory(dir.toFile());
      process = builder.start();
    } catch (IOException | RuntimeException e) {
      confinement.close(cell);   // or the next start would find the engines' uid still taken
      deleteTree(dir);
      deleteTree(logFile);
      throw e;
    }
    in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Picks how the engines are confined here, once, and says so in the log. */
  private void confine() throws IOException {
    root = TempDirs.create("eolab-engines-");
    try {
      confinement = EngineConfinement.prepare(root, settings.jar(), settings.uid(), HostTools.installed(), log::info);
    } catch (RuntimeException e) {
      deleteTree(root);
      throw new IOException("cannot start the engines here: " + e.getMessage(), e);   // the run fails, said so
    }
    if (confinement.isolated()) {
      log.info("engine lab: confined via {}: its broker and Flink's REST endpoint are reachable only from inside"
          + " its own network namespace", confinement.description());
    } else {
      log.warn("engine lab: no network namespace here, started via {}: its Kafka broker and Flink's REST endpoint"
          + " listen on loopback, reachable by every local account of this host", confinement.description());
    }
  }

  /** The engine jar's own main class, as its manifest names it. */
  private static String mainClass(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      var manifest = file.getManifest();
      String main = manifest == null ? null : manifest.getMainAttributes().getValue("Main-Class");
      if (main == null) throw new IOException(jar + " names no Main-Class");
      return main;
    }
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
      if (!process.waitFor(15, TimeUnit.SECONDS)) Launcher.kill(process).waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Launcher.kill(process);
      Thread.currentThread().interrupt();
    }
    process = null;
    confinement.close(cell);   // its uid is free again: the process has gone
    deleteTree(cell.dir());
    deleteTree(logFile);
  }

  /** Ends the process at once, even during a run (which then fails), so the app's stop does not wait for it. */
  @Override
  public void close() {
    Process running = process;
    if (running != null) Launcher.kill(running);
    stop();
    timers.shutdownNow();
    if (root != null) deleteTree(root);
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
