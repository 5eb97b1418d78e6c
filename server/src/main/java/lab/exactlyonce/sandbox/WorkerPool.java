package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.sandbox.confinement.ConfinementCheck;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.sandbox.confinement.HostTools;
import lab.exactlyonce.sandbox.confinement.Launcher;
import lab.exactlyonce.sandbox.confinement.WorkerCgroups;
import lab.exactlyonce.sandbox.confinement.WorkerUids;
import lab.exactlyonce.store.TempDirs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The worker JVMs: started with capped JVM flags, each in a private temporary directory, through the launcher the
 * start-up self-check chose ({@link ConfinementCheck}: as strongly confined as this host allows, never with the
 * server's environment). Keeps the idle ones, and one warm spare that takes no runs: a worker that ends (crashed,
 * killed after a hard limit, retired after a stack overflow or running out of heap, or exited on its own after a
 * stuck call) is replaced by the spare at once, so the next run does not wait for a JVM to start and warm up, and a
 * new spare starts in the background, with a growing pause if starts keep failing.
 */
final class WorkerPool {
  private static final Logger log = LoggerFactory.getLogger(WorkerPool.class);

  private final SandboxSettings settings;
  private final ObjectMapper json;
  private final ScheduledExecutorService timer;
  private final Runnable onIdle;
  private final HostTools tools;
  private volatile Launcher launcher;
  private volatile Optional<WorkerCgroups> cgroups = Optional.empty();
  private volatile ConfinementReport confinement = new ConfinementReport(ConfinementLevel.NONE, "not started yet",
      "the self-check runs when the sandbox starts");
  /** Created at start; holds one temporary directory per worker. */
  private volatile Path tempRoot;
  private final AtomicInteger serial = new AtomicInteger();
  private final AtomicInteger failuresInARow = new AtomicInteger();
  private final ArrayDeque<Role> initialPlan = new ArrayDeque<>();
  private final int lowPriorityWorkers;
  private final Set<WorkerProcess> live = ConcurrentHashMap.newKeySet();
  private final ArrayDeque<WorkerProcess> idle = new ArrayDeque<>();
  /** Warm, and given no runs until it takes the place of a worker that ended; guarded by this. */
  private WorkerProcess spare;
  private volatile boolean closing;

  /** What a worker is started for. */
  private enum Role {
    LIGHT, HEAVY, SPARE
  }

  /**
   * @param onIdle called (without locks held) whenever a worker becomes idle, so waiting runs can start
   */
  WorkerPool(SandboxSettings settings, HostTools tools, ObjectMapper json, ScheduledExecutorService timer,
             Runnable onIdle) {
    this.settings = settings;
    this.tools = tools;
    this.json = json;
    this.timer = timer;
    this.onIdle = onIdle;
    this.lowPriorityWorkers = lowPriorityWorkers(settings);
  }

  /**
   * Runs the confinement self-check, then starts the workers in the background.
   *
   * @throws lab.exactlyonce.sandbox.confinement.ConfinementException if this host cannot confine workers as the settings insist
   */
  void start() {
    try {
      // Marked with this process, so the next start removes it if this one ends without closing the sandbox.
      tempRoot = TempDirs.create("eolab-sandbox-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the sandbox workers' temporary directory", e);
    }
    var c = settings.confinement();
    try {
      var selection = ConfinementCheck.select(new ConfinementCheck.Demand(c.probe(), c.minimum(),
          new WorkerUids(c.firstUid(), c.lastUid()), c.bubblewrap(), c.mode()), settings.workerMain(), tempRoot, tools);
      launcher = selection.launcher();
      confinement = selection.report();
    } catch (RuntimeException e) {
      deleteTree(tempRoot);
      throw e;
    }
    cgroups = WorkerCgroups.create(tempRoot.getFileName().toString(), memoryCap(settings.workerHeap()));
    log.info("sandbox: {} workers{} ({} heap each; {} of them for heavy clients, nice {}); {}; {}",
        settings.workers(), settings.spareWorkers() > 0 ? " and a spare" : ", no spare", settings.workerHeap(), lowPriorityWorkers(settings), settings.heavyNice(), confinement,
        cgroups.map(Object::toString).orElse("no cgroup caps (not writable here)"));
    // One at a time: on two cores, JVMs warming up side by side slow each other past the engine's limits.
    synchronized (initialPlan) {
      for (int i = 0; i < settings.workers(); i++) {
        initialPlan.add(i >= settings.workers() - lowPriorityWorkers ? Role.HEAVY : Role.LIGHT);
      }
      if (settings.spareWorkers() > 0) initialPlan.add(Role.SPARE);
    }
    startNextInitial();
  }

  /** Starts the next of the initial workers once the previous one is ready (or has failed). */
  private void startNextInitial() {
    Role role;
    synchronized (initialPlan) {
      role = initialPlan.poll();
    }
    if (role != null) timer.execute(() -> spawn(role));
  }

  /**
   * Workers for heavy runs, started with {@code nice}: a spinning loop there yields the CPU to everybody else's
   * runs. With a single worker there is no separate lane.
   */
  static int lowPriorityWorkers(SandboxSettings settings) {
    return settings.workers() == 1 ? 0 : Math.max(1, Math.min(settings.heavyWorkers(), settings.workers() - 1));
  }

  ConfinementReport confinement() {
    return confinement;
  }

  Path tempRoot() {
    return tempRoot;
  }

  /**
   * An idle worker for a run, or null. When there is a low-priority lane, heavy runs only get its workers and light
   * runs only the others, so a light run never waits behind a spinning loop nor runs at low priority.
   */
  synchronized WorkerProcess takeIdle(boolean heavy) {
    idle.removeIf(w -> !w.alive());
    for (WorkerProcess w : idle) {
      if (lowPriorityWorkers == 0 || heavy == w.lowPriority()) {
        idle.remove(w);
        return w;
      }
    }
    return null;
  }

  /** How many workers serve light runs. */
  int lightLaneSize() {
    return settings.workers() - lowPriorityWorkers;
  }

  /** Whether {@link #takeIdle} would find a worker for a light run. */
  synchronized boolean hasIdleForLight() {
    for (WorkerProcess w : idle) {
      if (w.alive() && (lowPriorityWorkers == 0 || !w.lowPriority())) return true;
    }
    return false;
  }

  /** Whether {@link #takeIdle} would find a worker for a heavy run. */
  synchronized boolean hasIdleForHeavy() {
    for (WorkerProcess w : idle) {
      if (w.alive() && (lowPriorityWorkers == 0 || w.lowPriority())) return true;
    }
    return false;
  }

  /** A worker finished its run and may take another. */
  void giveBack(WorkerProcess worker) {
    if (closing || !worker.alive()) return;      // its exit handler replaces it
    synchronized (this) {
      idle.addLast(worker);
    }
    onIdle.run();
  }

  /** Kills a worker that overran or misbehaved, with the spare in its place before it is gone. */
  void retire(WorkerProcess worker) {
    replace(worker);
    worker.kill();
  }

  synchronized int idleCount() {
    return idle.size();
  }

  /** Whether the spare is warm and waiting. */
  synchronized boolean hasSpare() {
    return spare != null && spare.alive();
  }

  /** Waits until every worker is started and idle and the spare (if any) is warm, for tests and the benchmark. */
  boolean awaitAllIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (idleCount() >= settings.workers() && (hasSpare() || settings.spareWorkers() == 0)) return true;
      Thread.sleep(20);
    }
    return false;
  }

  /** The process ids of the live workers, the spare's too, for tests. */
  List<Long> pids() {
    return live.stream().filter(WorkerProcess::alive).map(WorkerProcess::pid).sorted().toList();
  }

  /** The process id of the warm spare, if one is waiting; for tests. */
  synchronized OptionalLong sparePid() {
    return spare != null && spare.alive() ? OptionalLong.of(spare.pid()) : OptionalLong.empty();
  }

  void close() {
    closing = true;
    List<WorkerProcess> all = new ArrayList<>(live);
    all.parallelStream().forEach(w -> w.close(2_000));
    synchronized (this) {
      idle.clear();
    }
    cgroups.ifPresent(WorkerCgroups::close);
    if (tempRoot != null) deleteTree(tempRoot);
  }

  /**
   * One worker's memory cap: its heap plus 768 MiB for metaspace (up to 192 MiB), code cache, thread stacks and
   * the JVM's own allocations, so only a worker far past its flags meets the kernel's limit.
   */
  static long memoryCap(String heap) {
    String digits = heap.replaceAll("[^0-9]", "");
    long n = Long.parseLong(digits);
    long bytes = switch (heap.substring(heap.length() - 1).toLowerCase(Locale.ROOT)) {
      case "k" -> n << 10;
      case "m" -> n << 20;
      case "g" -> n << 30;
      default -> n;
    };
    return bytes + (768L << 20);
  }

  private void spawn(Role role) {
    if (closing) return;
    boolean lowPriority = role == Role.HEAVY;
    String name = "worker-" + serial.incrementAndGet();
    WorkerProcess worker;
    Launcher.Cell cell = null;
    try {
      cell = launcher.open(Files.createDirectories(tempRoot.resolve(name)));
      List<Path> procs = cgroups.isPresent() ? cgroups.get().enter(name) : List.of();
      worker = WorkerProcess.start(name, command(cell, lowPriority, procs), json, lowPriority,
          lowerOnceWarm(lowPriority) ? settings.heavyNice() : 0);
    } catch (IOException | RuntimeException e) {
      if (cell != null) launcher.close(cell);
      log.error("sandbox: cannot start {}: {}", name, e.toString());
      startNextInitial();
      retryLater(role);
      return;
    }
    live.add(worker);
    long startedAt = System.nanoTime();
    Launcher.Cell its = cell;
    worker.exited().whenComplete((code, error) -> {
      launcher.close(its);
      onExit(worker, role, code);
    });
    worker.ready().whenComplete((w, error) -> {
      startNextInitial();
      if (error != null) {
        // a worker killed by the pool's close is no failure: the app is stopping
        if (!closing) log.error("sandbox: {} never became ready: {}", name, error.getMessage());
        worker.kill();
        return;
      }
      failuresInARow.set(0);
      log.debug("sandbox: {} ready in {} ms{}", name, (System.nanoTime() - startedAt) / 1_000_000,
          role == Role.SPARE ? " (the spare)" : "");
      if (role == Role.SPARE) {
        becomeSpare(worker);
      } else {
        giveBack(worker);
      }
    });
    timer.schedule(() -> {
      if (!worker.ready().isDone()) {
        log.error("sandbox: {} was not ready after 60 s; killing it", name);
        worker.kill();
      }
    }, 60, TimeUnit.SECONDS);
  }

  private void becomeSpare(WorkerProcess worker) {
    synchronized (this) {
      if (!closing && spare == null) {
        spare = worker;
        return;
      }
    }
    worker.claimReplacement();   // not wanted after all (the pool closes): it leaves without a replacement
    worker.kill();
  }

  private void onExit(WorkerProcess worker, Role role, Integer code) {
    live.remove(worker);
    boolean wasSpare;
    synchronized (this) {
      idle.remove(worker);
      wasSpare = spare == worker;
      if (wasSpare) spare = null;
    }
    deleteTree(tempRoot.resolve(worker.name()));
    cgroups.ifPresent(c -> c.release(worker.name()));
    if (closing) return;
    if (!worker.ready().isDone() || worker.ready().isCompletedExceptionally()) {
      retryLater(role);
    } else if (wasSpare) {
      log.info("sandbox: the spare {} exited with code {}; starting another", worker, code);
      timer.execute(() -> spawn(Role.SPARE));
    } else {
      if (!worker.wasKilled()) log.info("sandbox: {} exited with code {}; replacing it", worker, code);
      replace(worker);
    }
  }

  /**
   * Puts a warm worker in the place of one that leaves: the spare where it fits the lane (a new spare then starts in
   * the background), else a worker started for the lane. Whoever sees the worker leave first calls this (its
   * retirement, or its exit); later calls for the same worker do nothing.
   */
  private void replace(WorkerProcess gone) {
    if (closing || !gone.claimReplacement()) return;
    boolean heavy = gone.lowPriority();
    WorkerProcess promoted = takeSpare(heavy);
    if (promoted == null) {
      Role role = heavy ? Role.HEAVY : Role.LIGHT;
      timer.execute(() -> spawn(role));
      return;
    }
    log.info("sandbox: the spare {} takes the place of {}", promoted, gone);
    if (heavy) {
      timer.execute(() -> joinHeavyLane(promoted));
    } else {
      giveBack(promoted);
    }
    timer.execute(() -> spawn(Role.SPARE));
  }

  private synchronized WorkerProcess takeSpare(boolean heavy) {
    if (spare == null || !spare.alive() || heavy && !spareFitsHeavyLane()) return null;
    WorkerProcess taken = spare;
    spare = null;
    return taken;
  }

  /** Whether the spare can serve the heavy lane: it is the server's priority, or can be lowered to the lane's. */
  private boolean spareFitsHeavyLane() {
    return settings.heavyNice() == 0 || WorkerPriority.available();
  }

  private void joinHeavyLane(WorkerProcess promoted) {
    try {
      promoted.joinHeavyLane(lowerOnceWarm(true) ? settings.heavyNice() : 0);
    } catch (IOException e) {
      log.warn("sandbox: the spare {} could not join the heavy lane ({}); starting a worker for it", promoted,
          e.getMessage());
      promoted.claimReplacement();
      promoted.kill();
      spawn(Role.HEAVY);
      return;
    }
    giveBack(promoted);
  }

  private void retryLater(Role role) {
    int failures = failuresInARow.incrementAndGet();
    long delay = Math.min(30_000, 250L << Math.min(failures, 7));
    log.warn("sandbox: a worker failed to start ({} in a row); trying again in {} ms", failures, delay);
    timer.schedule(() -> spawn(role), delay, TimeUnit.MILLISECONDS);
  }

  /** Whether a worker warms up at the server's priority and is lowered once warm, rather than started niced. */
  private boolean lowerOnceWarm(boolean lowPriority) {
    return lowPriority && settings.heavyNice() > 0 && WorkerPriority.available();
  }

  private List<String> command(Launcher.Cell cell, boolean lowPriority, List<Path> cgroupProcs) {
    var command = new ArrayList<String>();
    // outside the confinement, so that it applies to the whole chain
    if (lowPriority && settings.heavyNice() > 0 && !WorkerPriority.available()) command.addAll(List.of("nice", "-n", String.valueOf(settings.heavyNice())));
    String inside = launcher.tmpInside(cell.dir());
    var java = new ArrayList<String>(List.of(launcher.java(),
        "-Xmx" + settings.workerHeap(),
        "-Xss" + settings.workerStack(),
        "-XX:+UseSerialGC",
        "-XX:MaxMetaspaceSize=192m",
        "-XX:-UsePerfData",
        "-XX:+DisableAttachMechanism",
        "-XX:-OmitStackTraceInFastThrow",
        "-XX:+DisplayVMOutputToStderr",
        // only the modules the engine needs: AWT, java.net.http, JDBC and the like are not even there
        "--limit-modules", "java.base,java.logging,java.management,jdk.management,jdk.unsupported,jdk.compiler",
        "-Xshare:auto",
        "-XX:ErrorFile=" + inside + "/hs_err_pid%p.log",
        "-Djava.io.tmpdir=" + inside,
        "-Deolab.worker.tmp=" + inside,
        "-Dfile.encoding=UTF-8",
        // The same defaults for every learner on every host, whatever the server's own environment says.
        "-Duser.language=en", "-Duser.country=US", "-Duser.timezone=UTC",
        "-Djava.awt.headless=true"));
    java.addAll(settings.workerJvmFlags());
    java.addAll(List.of("-cp", launcher.classPath(), settings.workerMain()));
    command.addAll(launcher.wrap(cell, java, cgroupProcs));
    return command;
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) return;
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      log.debug("sandbox: could not delete {}: {}", root, e.toString());
    }
  }
}
