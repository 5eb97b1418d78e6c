package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.engine.SandboxLimits;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every sandbox limit in one place, with the defaults a newcomer gets. Each field has a flag and an environment
 * variable ({@link #FLAGS}); the app's {@code Config} reads them.
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

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = flagTable();

  private static Map<String, String> flagTable() {
    var table = new LinkedHashMap<String, String>();
    for (String flag : List.of("--sandbox-workers", "--sandbox-worker-heap", "--sandbox-worker-stack",
        "--sandbox-worker-jvm-flags",
        "--sandbox-cpu-ms", "--sandbox-wall-ms", "--sandbox-tick-budget", "--sandbox-max-live-bytes",
        "--sandbox-max-output-bytes",
        "--sandbox-max-source-bytes", "--sandbox-compile-ms", "--sandbox-kill-grace-ms", "--sandbox-queue",
        "--sandbox-per-client", "--sandbox-heavy-after-ms", "--sandbox-heavy-workers", "--sandbox-heavy-nice", "--sandbox-queue-wait-ms",
        "--sandbox-confinement", "--sandbox-max-trace-events", "--sandbox-max-trace-bytes",
        "--sandbox-max-diagnostics", "--sandbox-cache-bytes", "--sandbox-worker-uids",
        "--sandbox-bubblewrap", "--sandbox-spare-workers")) {
      table.put(flag, flag.substring(2).toUpperCase(Locale.ROOT).replace('-', '_'));
    }
    return Collections.unmodifiableMap(table);
  }

  public static SandboxSettings defaults() {
    return from(flag -> Optional.empty());
  }

  /** Reads every sandbox option through {@code option} (flag, then environment), falling back to the defaults. */
  public static SandboxSettings from(Function<String, Optional<String>> option) {
    SandboxLimits base = SandboxLimits.defaults();
    long cpu = number(option, "--sandbox-cpu-ms", base.cpuMillis());
    long wall = number(option, "--sandbox-wall-ms", cpu * SandboxLimits.BUSY_HOST_FACTOR);
    if (cpu > 0 && wall < cpu) {
      throw new IllegalArgumentException("--sandbox-wall-ms (" + wall + ") must be at least --sandbox-cpu-ms (" + cpu + ")");
    }
    SandboxLimits limits = new SandboxLimits(cpu, wall,
        number(option, "--sandbox-tick-budget", base.tickBudget()),
        number(option, "--sandbox-max-live-bytes", base.maxLiveBytes()),
        Math.toIntExact(number(option, "--sandbox-max-output-bytes", base.maxOutputBytes())),
        Math.toIntExact(number(option, "--sandbox-max-source-bytes", base.maxSourceBytes())),
        number(option, "--sandbox-compile-ms", base.compileMillis()),
        Math.toIntExact(positiveNumber(option, "--sandbox-max-trace-events", base.maxTraceEvents())),
        Math.toIntExact(positiveNumber(option, "--sandbox-max-trace-bytes", base.maxTraceBytes())),
        Math.toIntExact(positiveNumber(option, "--sandbox-max-diagnostics", base.maxDiagnostics())),
        positiveNumber(option, "--sandbox-cache-bytes", base.cacheBytes()));
    return new SandboxSettings(
        Math.toIntExact(number(option, "--sandbox-workers", 3)),
        option.apply("--sandbox-worker-heap").orElse("256m"),
        option.apply("--sandbox-worker-stack").orElse("1m"),
        option.apply("--sandbox-worker-jvm-flags").map(v -> List.of(v.trim().split("\\s+")))
            .orElse(DEFAULT_WORKER_JVM_FLAGS),
        limits,
        number(option, "--sandbox-kill-grace-ms", 1_500),
        Math.toIntExact(number(option, "--sandbox-queue", 256)),
        Math.toIntExact(number(option, "--sandbox-per-client", 3)),
        number(option, "--sandbox-heavy-after-ms", 1_000),
        Math.toIntExact(number(option, "--sandbox-heavy-workers", 1)),
        Math.toIntExact(number(option, "--sandbox-heavy-nice", 0)),
        number(option, "--sandbox-queue-wait-ms", 20_000),
        Confinement.parse(option.apply("--sandbox-confinement").orElse("auto"),
            option.apply("--sandbox-worker-uids").orElse(Confinement.DEFAULT_WORKER_UIDS),
            option.apply("--sandbox-bubblewrap").orElse("auto")),
        ENGINE_WORKER_MAIN, true, Math.toIntExact(number(option, "--sandbox-spare-workers", 1)));
  }

  public SandboxSettings withWorkers(int count) {
    return new SandboxSettings(count, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, queueCapacity, perClientCap,
        heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp, spareWorkers);
  }

  public SandboxSettings withLimits(SandboxLimits newLimits) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, newLimits, killGraceMillis, queueCapacity,
        perClientCap, heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp, spareWorkers);
  }

  public SandboxSettings withQueue(int capacity, int perClient) {
    return new SandboxSettings(workers, workerHeap, workerStack, workerJvmFlags, limits, killGraceMillis, capacity, perClient,
        heavyAfterMillis, heavyWorkers, heavyNice, queueWaitMillis, confinement, workerMain, startWithApp, spareWorkers);
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

  private static long number(Function<String, Optional<String>> option, String flag, long fallback) {
    return option.apply(flag).map(text -> {
      try {
        return Long.parseLong(text.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a whole number, got '" + text + "'");
      }
    }).orElse(fallback);
  }

  private static long positiveNumber(Function<String, Optional<String>> option, String flag, long fallback) {
    long value = number(option, flag, fallback);
    positive(value, flag);
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
