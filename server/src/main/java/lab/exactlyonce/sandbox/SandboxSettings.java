package lab.exactlyonce.sandbox;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.engine.SandboxLimits;

import java.util.List;
import java.util.Locale;

/**
 * Every sandbox limit in one place, with the defaults a newcomer gets. Each field has an option ({@link #OPTIONS}:
 * flag, environment variable, default); the app's {@code Config} reads them.
 *
 * @param workers worker JVMs kept warm; each runs one snippet at a time
 * @param workerHeap the workers' {@code -Xmx} value, such as {@code 256m}
 * @param workerStack the workers' {@code -Xss} value, such as {@code 1m}
 * @param workerJvmFlags more JVM flags for the workers (space-separated on the command line)
 * @param limits the budgets of one run, passed to the worker with every request
 * @param killGraceMillis how long after the run's wall limit the server stops waiting and kills the worker
 * @param queueCapacity runs waiting for a worker, over all clients; beyond it new runs get 429
 * @param perClientCap runs one client may have waiting or running; beyond it that client gets 429
 * @param heavyAfterMillis a run slower than this (or one that hit a limit) makes its client "heavy"
 * @param heavyWorkers workers kept for heavy clients (their lane); the rest serve everyone else
 * @param heavyNice the {@code nice} level (0 to 19) of the heavy lane's workers; 0 runs them at normal priority
 * @param queueWaitMillis a run that waited this long without a worker is answered as internal_error
 * @param confinement how workers are confined by the operating system, and their uid
 * @param workerMain the class a worker JVM runs (tests swap in a fake that speaks the same protocol)
 * @param startWithApp whether the app starts the workers (and the confinement self-check) when it starts; otherwise
 *     they start with the first run, so a test that never runs code starts no worker JVM
 * @param spareWorkers 1 keeps a warm spare that takes a damaged worker's place at once; 0 saves its memory (and the
 *     tests that do not try it, its start), and a damaged worker's runs wait for a new one to warm up
 */
public record SandboxSettings(int workers, String workerHeap, String workerStack, List<String> workerJvmFlags,
                              SandboxLimits limits,
                              long killGraceMillis, int queueCapacity, int perClientCap, long heavyAfterMillis,
                              int heavyWorkers, int heavyNice, long queueWaitMillis, Confinement confinement, String workerMain,
                              boolean startWithApp, int spareWorkers) {

  /** None: C1-only code ({@code -XX:TieredStopAtLevel=1}) was measured and rejected, see docs/sandbox.md. */
  static final List<String> DEFAULT_WORKER_JVM_FLAGS = List.of();

  public static final String ENGINE_WORKER_MAIN = "lab.exactlyonce.sandbox.engine.WorkerMain";

  /**
   * How worker processes are confined beyond running in their own JVM: {@code auto} (the best this host allows),
   * a minimum level (refuse to start below it), or {@code none} (plain child processes on purpose); the range of
   * uids workers run as when the server runs as root, one of its own per live worker (numeric, no passwd entry
   * needed; give each app instance on a host its own range); and whether bubblewrap may be used where it is
   * installed ({@code off} makes the self-check use what every Linux host has: util-linux and a seccomp filter the
   * worker installs itself).
   */
  public record Confinement(String mode, ConfinementLevel minimum, boolean probe, int firstUid, int lastUid,
                            boolean bubblewrap) {
    public static final String DEFAULT_WORKER_UIDS = "64000-64999";
    public static final Confinement AUTO = parse("auto", DEFAULT_WORKER_UIDS, "auto");
    public static final Confinement NONE = parse("none", DEFAULT_WORKER_UIDS, "auto");

    public Confinement {
      if (firstUid < 1 || lastUid > 2_147_483_646 || lastUid < firstUid) {
        throw new IllegalArgumentException("--sandbox-worker-uids must be a range FIRST-LAST of uids between 1 and "
            + "2147483646, got " + firstUid + "-" + lastUid);
      }
    }

    /** How many uids the range holds. */
    public long uidCount() {
      return (long) lastUid - firstUid + 1;
    }

    /** The same, without bubblewrap (tests of the path a host without it takes). */
    public Confinement withoutBubblewrap() {
      return new Confinement(mode, minimum, probe, firstUid, lastUid, false);
    }

    static Confinement parse(String text, String uids, String bubblewrap) {
      var range = uids.trim().split("\\s*-\\s*");
      long first;
      long last;
      try {
        if (range.length != 2) throw new NumberFormatException();
        first = Long.parseLong(range[0]);
        last = Long.parseLong(range[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--sandbox-worker-uids must be a range FIRST-LAST such as "
            + DEFAULT_WORKER_UIDS + ", got '" + uids + "'");
      }
      if (first < 1 || last > 2_147_483_646 || last < first) {
        throw new IllegalArgumentException("--sandbox-worker-uids must be a range FIRST-LAST of uids between 1 and "
            + "2147483646, got '" + uids + "'");
      }
      boolean useBubblewrap = switch (bubblewrap.trim().toLowerCase(Locale.ROOT)) {
        case "auto", "on" -> true;
        case "off" -> false;
        default -> throw new IllegalArgumentException("--sandbox-bubblewrap must be auto or off, got '" + bubblewrap
            + "'");
      };
      String mode = text.trim().toLowerCase(Locale.ROOT);
      ConfinementLevel minimum = switch (mode) {
        case "auto", "none" -> ConfinementLevel.NONE;
        case "network", "network-namespace" -> ConfinementLevel.NETWORK;
        case "contained" -> ConfinementLevel.CONTAINED;
        case "hardened" -> ConfinementLevel.HARDENED;
        default -> throw new IllegalArgumentException("--sandbox-confinement must be one of auto, network, contained, "
            + "hardened, none (network-namespace is network); got '" + text + "'");
      };
      return new Confinement(mode, minimum, !mode.equals("none"), (int) first, (int) last, useBubblewrap);
    }
  }

  public SandboxSettings {
    positive(workers, "--sandbox-workers");
    requireMemorySize(workerHeap, "--sandbox-worker-heap");
    requireMemorySize(workerStack, "--sandbox-worker-stack");
    workerJvmFlags = List.copyOf(workerJvmFlags);
    for (String flag : workerJvmFlags) {
      if (!flag.startsWith("-X")) {
        throw new IllegalArgumentException("--sandbox-worker-jvm-flags takes -X... JVM flags only, got '" + flag + "'");
      }
    }
    if (limits == null) throw new IllegalArgumentException("sandbox limits are missing");
    positive(killGraceMillis, "--sandbox-kill-grace-ms");
    positive(queueCapacity, "--sandbox-queue");
    positive(perClientCap, "--sandbox-per-client");
    positive(heavyAfterMillis, "--sandbox-heavy-after-ms");
    positive(heavyWorkers, "--sandbox-heavy-workers");
    if (heavyNice < 0 || heavyNice > 19) {
      throw new IllegalArgumentException("--sandbox-heavy-nice must be between 0 and 19, got " + heavyNice);
    }
    positive(queueWaitMillis, "--sandbox-queue-wait-ms");
    if (confinement == null) throw new IllegalArgumentException("sandbox confinement is missing");
    // every live worker has a uid of its own, and a replacement starts before the worker it replaces has ended
    if (confinement.uidCount() < 2L * workers + 2) {
      throw new IllegalArgumentException("--sandbox-worker-uids must hold at least twice --sandbox-workers plus 2 uids ("
          + (2L * workers + 2) + "), got " + confinement.uidCount());
    }
    if (workerMain == null || workerMain.isBlank()) throw new IllegalArgumentException("sandbox worker main class is missing");
    if (spareWorkers < 0 || spareWorkers > 1) {
      throw new IllegalArgumentException("--sandbox-spare-workers must be 0 or 1, got " + spareWorkers);
    }
  }

  private static final SandboxLimits BASE = SandboxLimits.defaults();

  private static final Option WORKERS = Option.of("--sandbox-workers", "SANDBOX_WORKERS", "3", "1 or more",
      "worker JVMs (2 for everyone, 1 lane for heavy and new clients), plus one warm spare");
  private static final Option WORKER_HEAP = Option.of("--sandbox-worker-heap", "SANDBOX_WORKER_HEAP", "256m",
      "a JVM memory size such as `256m`", "each worker's `-Xmx`");
  private static final Option WORKER_STACK = Option.of("--sandbox-worker-stack", "SANDBOX_WORKER_STACK", "1m",
      "a JVM memory size such as `1m`", "`-Xss` (the engine runs learner code on its own thread with its own stack)");
  private static final Option WORKER_JVM_FLAGS = Option.withoutDefault("--sandbox-worker-jvm-flags",
      "SANDBOX_WORKER_JVM_FLAGS", "none", "`-X...` JVM flags, space-separated", "more JVM flags for the workers");
  private static final Option CPU_MS = Option.of("--sandbox-cpu-ms", "SANDBOX_CPU_MS", String.valueOf(BASE.cpuMillis()),
      "1 or more", "CPU time one run may compute (its thread's, plus the garbage collections it causes), enforced by"
      + " the worker");
  private static final Option WALL_MS = Option.withoutDefault("--sandbox-wall-ms", "SANDBOX_WALL_MS",
      SandboxLimits.BUSY_HOST_FACTOR + " x `--sandbox-cpu-ms` (" + BASE.wallMillis() + ")",
      "at least `--sandbox-cpu-ms`", "clock time after which a run ends whatever it computed; only a busy host"
      + " reaches it, since learner code cannot sleep or wait");
  private static final Option TICK_BUDGET = Option.of("--sandbox-tick-budget", "SANDBOX_TICK_BUDGET",
      String.valueOf(BASE.tickBudget()), "1 or more", "loop back-edges + method entries after which the run's CPU"
      + " time is read, whatever the clock says; no limit of its own (docs/sandbox.md)");
  private static final Option MAX_LIVE_BYTES = Option.of("--sandbox-max-live-bytes", "SANDBOX_MAX_LIVE_BYTES",
      String.valueOf(BASE.maxLiveBytes()), "1 or more", "data one run may keep live at once (192 MB of the 256 MB"
      + " heap); what it allocates in total is not limited");
  private static final Option MAX_OUTPUT_BYTES = Option.of("--sandbox-max-output-bytes", "SANDBOX_MAX_OUTPUT_BYTES",
      String.valueOf(BASE.maxOutputBytes()), "1 or more", "stdout + stderr of one run");
  private static final Option MAX_SOURCE_BYTES = Option.of("--sandbox-max-source-bytes", "SANDBOX_MAX_SOURCE_BYTES",
      String.valueOf(BASE.maxSourceBytes()), "1 or more", "source size (413 above it)");
  private static final Option COMPILE_MS = Option.of("--sandbox-compile-ms", "SANDBOX_COMPILE_MS",
      String.valueOf(BASE.compileMillis()), "1 or more", "compile time");
  private static final Option MAX_TRACE_EVENTS = Option.of("--sandbox-max-trace-events", "SANDBOX_MAX_TRACE_EVENTS",
      String.valueOf(BASE.maxTraceEvents()), "1 or more", "trace events one answer carries; the next becomes one"
      + " `truncated` event (\"the trace holds at most 5000 events; later events were dropped\")");
  private static final Option MAX_TRACE_BYTES = Option.of("--sandbox-max-trace-bytes", "SANDBOX_MAX_TRACE_BYTES",
      String.valueOf(BASE.maxTraceBytes()), "1 or more", "the trace's size as JSON (strings are cut to 200"
      + " characters, but 5,000 events of them can make 8 MB); the event that would pass it becomes one `truncated`"
      + " event");
  private static final Option MAX_DIAGNOSTICS = Option.of("--sandbox-max-diagnostics", "SANDBOX_MAX_DIAGNOSTICS",
      String.valueOf(BASE.maxDiagnostics()), "1 or more", "compile errors or refused APIs one answer lists; then one"
      + " more, \"and N more problems (only the first 50 are listed)\"");
  private static final Option CACHE_BYTES = Option.of("--sandbox-cache-bytes", "SANDBOX_CACHE_BYTES",
      String.valueOf(BASE.cacheBytes()), "1 or more", "class-file bytes (plus diagnostics' text) each worker's compile"
      + " cache holds over all its entries (at most 64 entries); sent with every request, like the run limits");
  private static final Option KILL_GRACE_MS = Option.of("--sandbox-kill-grace-ms", "SANDBOX_KILL_GRACE_MS", "1500",
      "1 or more", "the server kills a worker that has not answered at the clock limit + grace (7.5 s by default)");
  private static final Option QUEUE = Option.of("--sandbox-queue", "SANDBOX_QUEUE", "256", "1 or more",
      "runs waiting over all clients; more get 429");
  private static final Option PER_CLIENT = Option.of("--sandbox-per-client", "SANDBOX_PER_CLIENT", "3", "1 or more",
      "runs one client may have waiting or running");
  private static final Option HEAVY_AFTER_MS = Option.of("--sandbox-heavy-after-ms", "SANDBOX_HEAVY_AFTER_MS", "1000",
      "1 or more", "a run longer than this on its worker makes its client heavy");
  private static final Option HEAVY_WORKERS = Option.of("--sandbox-heavy-workers", "SANDBOX_HEAVY_WORKERS", "1",
      "1 or more", "workers in the heavy lane");
  private static final Option HEAVY_NICE = Option.of("--sandbox-heavy-nice", "SANDBOX_HEAVY_NICE", "0", "0 to 19",
      "`nice` level of the heavy lane's workers (0 = normal priority)");
  private static final Option QUEUE_WAIT_MS = Option.of("--sandbox-queue-wait-ms", "SANDBOX_QUEUE_WAIT_MS", "20000",
      "1 or more", "a run that found no worker for this long is answered `internal_error`");
  private static final Option CONFINEMENT = Option.of("--sandbox-confinement", "SANDBOX_CONFINEMENT", "auto",
      "`auto`, `network`, `contained`, `hardened`, `none` (`network-namespace` = `network`)", "how sandbox workers"
      + " are confined by the OS: `auto` (the best this host allows, found by a self-check at start), a minimum level"
      + " (refuse to start below it), or `none` (plain child processes on purpose); see [the sandbox](sandbox.md)");
  private static final Option WORKER_UIDS = Option.of("--sandbox-worker-uids", "SANDBOX_WORKER_UIDS",
      Confinement.DEFAULT_WORKER_UIDS, "a range FIRST-LAST holding at least twice `--sandbox-workers` plus 2 uids",
      "the uids (and gids) workers run as when the server runs as root, one of its own per live worker (workers never"
      + " run as root; numeric, no passwd entry needed; give each app instance on a host its own range)");
  private static final Option BUBBLEWRAP = Option.of("--sandbox-bubblewrap", "SANDBOX_BUBBLEWRAP", "auto",
      "`auto`, `off`", "`auto` uses bubblewrap where it is installed; `off` leaves it out even there: workers are then"
      + " confined with util-linux (`unshare`, `setpriv`) and a seccomp filter each loads itself");
  private static final Option SPARE_WORKERS = Option.of("--sandbox-spare-workers", "SANDBOX_SPARE_WORKERS", "1",
      "`0`, `1`", "a warm spare worker takes a damaged worker's place at once; `0` saves its memory (one worker heap),"
      + " and a run after a crash then waits for a new worker to warm up");

  /** Every sandbox option. */
  public static final List<Option> OPTIONS = List.of(WORKERS, WORKER_HEAP, WORKER_STACK, WORKER_JVM_FLAGS, CPU_MS,
      WALL_MS, TICK_BUDGET, MAX_LIVE_BYTES, MAX_OUTPUT_BYTES, MAX_SOURCE_BYTES, COMPILE_MS, MAX_TRACE_EVENTS,
      MAX_TRACE_BYTES, MAX_DIAGNOSTICS, CACHE_BYTES, KILL_GRACE_MS, QUEUE, PER_CLIENT, HEAVY_AFTER_MS, HEAVY_WORKERS,
      HEAVY_NICE, QUEUE_WAIT_MS, CONFINEMENT, WORKER_UIDS, BUBBLEWRAP, SPARE_WORKERS);

  public static SandboxSettings defaults() {
    return from(OptionValues.none());
  }

  /** Reads every sandbox option through {@code values} (flag, then environment), falling back to the defaults. */
  public static SandboxSettings from(OptionValues values) {
    long cpu = number(values, CPU_MS);
    long wall = values.given(WALL_MS).map(text -> parse(WALL_MS, text)).orElse(cpu * SandboxLimits.BUSY_HOST_FACTOR);
    if (cpu > 0 && wall < cpu) {
      throw new IllegalArgumentException("--sandbox-wall-ms (" + wall + ") must be at least --sandbox-cpu-ms (" + cpu + ")");
    }
    SandboxLimits limits = new SandboxLimits(cpu, wall,
        number(values, TICK_BUDGET),
        number(values, MAX_LIVE_BYTES),
        Math.toIntExact(number(values, MAX_OUTPUT_BYTES)),
        Math.toIntExact(number(values, MAX_SOURCE_BYTES)),
        number(values, COMPILE_MS),
        Math.toIntExact(positiveNumber(values, MAX_TRACE_EVENTS)),
        Math.toIntExact(positiveNumber(values, MAX_TRACE_BYTES)),
        Math.toIntExact(positiveNumber(values, MAX_DIAGNOSTICS)),
        positiveNumber(values, CACHE_BYTES));
    return new SandboxSettings(
        Math.toIntExact(number(values, WORKERS)),
        values.orDefault(WORKER_HEAP),
        values.orDefault(WORKER_STACK),
        values.given(WORKER_JVM_FLAGS).map(v -> List.of(v.trim().split("\\s+"))).orElse(DEFAULT_WORKER_JVM_FLAGS),
        limits,
        number(values, KILL_GRACE_MS),
        Math.toIntExact(number(values, QUEUE)),
        Math.toIntExact(number(values, PER_CLIENT)),
        number(values, HEAVY_AFTER_MS),
        Math.toIntExact(number(values, HEAVY_WORKERS)),
        Math.toIntExact(number(values, HEAVY_NICE)),
        number(values, QUEUE_WAIT_MS),
        Confinement.parse(values.orDefault(CONFINEMENT), values.orDefault(WORKER_UIDS), values.orDefault(BUBBLEWRAP)),
        ENGINE_WORKER_MAIN, true, Math.toIntExact(number(values, SPARE_WORKERS)));
  }

  public SandboxSettings withWorkers(int count) {
    return new SandboxSettings(count, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity, perClientCap,
        heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp, spareWorkers);
  }

  public SandboxSettings withLimits(SandboxLimits newLimits) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, newLimits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp, spareWorkers);
  }

  public SandboxSettings withWorkerMain(String className) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, className, startWithApp, spareWorkers);
  }

  public SandboxSettings withConfinement(Confinement mode) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, mode, workerMain, startWithApp, spareWorkers);
  }

  /** The same settings with {@code count} (0 or 1) warm spares. */
  public SandboxSettings withSpareWorkers(int count) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp,
        count);
  }

  /** The same settings, with the workers started by the first run instead of by the app's start. */
  public SandboxSettings startingOnFirstRun() {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, false, spareWorkers);
  }

  /** When the server gives up on a run and kills its worker: the run's wall-clock limit plus the grace. */
  public long hardLimitMillis() {
    return limits.wallMillis() + killGraceMillis;
  }

  private static long number(OptionValues values, Option option) {
    return parse(option, values.orDefault(option));
  }

  private static long parse(Option option, String text) {
    try {
      return Long.parseLong(text.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option.flag() + " must be a whole number, got '" + text + "'");
    }
  }

  private static long positiveNumber(OptionValues values, Option option) {
    long value = number(values, option);
    positive(value, option.flag());
    return value;
  }

  private static void positive(long value, String flag) {
    if (value <= 0) throw new IllegalArgumentException(flag + " must be at least 1, got " + value);
  }

  private static void requireMemorySize(String value, String flag) {
    if (value == null || !value.matches("[1-9][0-9]*[kKmMgG]?")) {
      throw new IllegalArgumentException(flag + " must be a JVM memory size such as 256m, got '" + value + "'");
    }
  }
}
