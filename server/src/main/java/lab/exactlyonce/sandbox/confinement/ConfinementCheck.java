package lab.exactlyonce.sandbox.confinement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The start-up self-check: stages the worker class path and the seccomp program, then starts the probe through
 * each launcher of the chain, strongest first, and keeps the first that reaches the level it aims for (or the best
 * one seen). One log line per launcher tried and one summary line. Below the level the settings insist on it
 * refuses with one line that names what is missing.
 */
public final class ConfinementCheck {
  private static final Logger log = LoggerFactory.getLogger(ConfinementCheck.class);
  /**
   * What each launcher reached, by its command shape: the host does not change under a running JVM, and several
   * sandboxes in one JVM (tests, the benchmark) need not probe again.
   */
  private static final Map<String, ProbeRun.Outcome> PROBED = new ConcurrentHashMap<>();

  /**
   * What the sandbox asks for. {@code probe} false means plain child processes on purpose (level none); {@code uids}
   * are the worker uids when the server runs as root; {@code bubblewrap} false leaves bubblewrap out even where it is
   * installed.
   */
  public record Demand(boolean probe, ConfinementLevel minimum, WorkerUids uids, boolean bubblewrap,
                       String flagValue) {}

  /** The launcher the workers use and what the check found. */
  public record Selection(Launcher launcher, ConfinementReport report) {}

  private ConfinementCheck() {
  }

  /** Prepares {@code tempRoot} (the sandbox's own directory) and selects the launcher for this host. */
  public static Selection select(Demand demand, String workerMain, Path tempRoot, HostTools tools) {
    return select(demand, workerMain, tempRoot, tools, LauncherChain::candidates);
  }

  static Selection select(Demand demand, String workerMain, Path tempRoot, HostTools tools,
                          Function<LaunchHost, List<Launcher>> chain) {
    long start = System.nanoTime();
    LaunchHost host = prepareHost(demand, workerMain, tempRoot, tools);
    List<Launcher> launchers = chain.apply(host);
    if (!demand.probe()) {
      Launcher plain = launchers.get(launchers.size() - 1);
      return new Selection(plain, new ConfinementReport(ConfinementLevel.NONE, plain.name(),
          "configured (--sandbox-confinement none): workers are plain child processes with a cleared environment",
          List.of("every check: the self-check did not run"),
          NextStep.toHardened(ConfinementLevel.NONE, false, NextStep.Host.of(host))));
    }
    Path marker = serverOnlyMarker(tempRoot);
    var targets = new ProbeRun.Targets(marker, List.of());
    List<ProbeRun.Outcome> tried = new ArrayList<>();
    ProbeRun.Outcome best = null;
    Launcher chosen = null;
    int probes = 0;
    for (Launcher launcher : launchers) {
      if (best != null && best.level().atLeast(launcher.target())) break;   // nothing further down can do better
      String key = launcher.name() + " | " + tools + " | " + host.javaHome();
      ProbeRun.Outcome outcome = PROBED.get(key);
      if (outcome == null) {
        outcome = ProbeRun.run(launcher, tempRoot.resolve("probe-" + ++probes), targets, tools);
        if (outcome.verdict().isPresent()) PROBED.put(key, outcome);
        logOutcome(outcome);
      }
      tried.add(outcome);
      if (outcome.verdict().isPresent() && (best == null || outcome.level().compareTo(best.level()) > 0)) {
        best = outcome;
        chosen = launcher;
      }
      if (outcome.verdict().isPresent() && outcome.level().atLeast(launcher.target())) break;
    }
    if (best == null) {
      throw new ConfinementException("--sandbox-confinement " + demand.flagValue() + ": no launcher could start a JVM here; "
          + tried.stream().map(o -> o.launcher().name() + ": " + o.failure()).collect(Collectors.joining("; ")));
    }
    ConfinementLevel level = best.level();
    if (!level.atLeast(demand.minimum())) throw refusal(demand, best, tried);
    String details = detailsOf(best);
    if (probes > 0) {
      log.info("sandbox confinement: {} via {} ({} probe{} in {} ms)", level.id(), chosen.name(), probes,
          probes == 1 ? "" : "s", (System.nanoTime() - start) / 1_000_000);
    }
    List<String> missing = best.verdict().orElseThrow().missingFor(ConfinementLevel.HARDENED).stream()
        .map(ProbeVerdict.Check::name).distinct().toList();
    return new Selection(chosen, new ConfinementReport(level, chosen.name(), details, missing,
        NextStep.toHardened(level, true, NextStep.Host.of(host))));
  }

  private static ConfinementException refusal(Demand demand, ProbeRun.Outcome best, List<ProbeRun.Outcome> tried) {
    var missing = new ArrayList<String>();
    best.verdict().orElseThrow().missingFor(demand.minimum()).forEach(c -> missing.add(c.toString()));
    for (ProbeRun.Outcome o : tried) {
      if (o.verdict().isEmpty() && o.launcher().target().atLeast(demand.minimum())) {
        missing.add(o.launcher().name() + " failed: " + o.failure());
        break;   // the strongest one's reason; the weaker variants of it mostly fail the same way
      }
    }
    return new ConfinementException("--sandbox-confinement " + demand.flagValue() + ": the best launcher here ("
        + best.launcher().name() + ") reached " + best.level().id() + "; missing: " + String.join("; ", missing));
  }

  private static String detailsOf(ProbeRun.Outcome best) {
    return switch (best.level()) {
      case HARDENED -> "own namespaces, no capabilities, no new privileges, seccomp filter, no network";
      case CONTAINED -> "own namespaces, no capabilities, no network; missing for hardened: "
          + best.verdict().orElseThrow().missingFor(ConfinementLevel.HARDENED).stream().map(Object::toString)
          .collect(Collectors.joining("; "));
      case NETWORK -> "workers have no network; missing for contained: "
          + best.verdict().orElseThrow().missingFor(ConfinementLevel.CONTAINED).stream()
          .map(ProbeVerdict.Check::name).collect(Collectors.joining(", "));
      case NONE -> "workers are plain child processes with a cleared environment";
    };
  }

  private static void logOutcome(ProbeRun.Outcome o) {
    if (o.verdict().isEmpty()) {
      log.info("sandbox confinement: {} failed: {}", o.launcher().name(), o.failure());
    } else if (o.level().atLeast(o.launcher().target())) {
      log.info("sandbox confinement: {} reached {}", o.launcher().name(), o.level().id());
    } else {
      log.info("sandbox confinement: {} reached {}, not {}; missing: {}", o.launcher().name(), o.level().id(),
          o.launcher().target().id(), o.verdict().orElseThrow().missingFor(o.launcher().target()).stream()
              .map(Object::toString).collect(Collectors.joining("; ")));
    }
  }

  /** Runs the probe through {@code launcher} with more server-only files to read; for tests. */
  static ProbeRun.Outcome probe(Launcher launcher, Path tempRoot, List<Path> moreServerFiles, HostTools tools) {
    return ProbeRun.run(launcher, tempRoot.resolve("probe-extra-" + System.nanoTime()),
        new ProbeRun.Targets(serverOnlyMarker(tempRoot), moreServerFiles), tools);
  }

  static LaunchHost prepareHost(Demand demand, String workerMain, Path tempRoot, HostTools tools) {
    try {
      // traversable by the worker uid (to reach its own directory and the class path), not listable
      Files.setPosixFilePermissions(tempRoot, PosixFilePermissions.fromString("rwx--x--x"));
      Path stage = tempRoot.resolve("classpath");
      var classPath = ClassPathStage.stage(ClassPathStage.sources(workerMain), stage);
      Optional<Path> jnaLibraryDir = ClassPathStage.stageJnaLibrary(stage);
      // seccomp is Linux's: elsewhere (macOS, Windows) no launcher offers it and the check settles on a plain child
      boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
      Optional<Path> seccomp = SeccompFilter.forArch(linux ? System.getProperty("os.arch") : "").map(filter -> {
        Path file = tempRoot.resolve("seccomp.bpf");
        try {
          filter.writeTo(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return file;
      });
      boolean root = effectiveUid() == 0;
      Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
      Path debianConf = Path.of("/etc/java-" + Runtime.version().feature() + "-openjdk");
      return new LaunchHost(tools, javaHome, Files.isDirectory(debianConf) ? Optional.of(debianConf) : Optional.empty(),
          classPath, jnaLibraryDir, seccomp, root ? Optional.of(demand.uids()) : Optional.empty(), demand.bubblewrap(),
          root, Optional.empty());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the sandbox directory " + tempRoot, e);
    }
  }

  /** A file only the server may read, which no confined worker must see. */
  private static Path serverOnlyMarker(Path tempRoot) {
    Path marker = tempRoot.resolve("server-only-marker");
    try {
      if (!Files.exists(marker)) {
        Files.writeString(marker, HexFormat.of().formatHex(new SecureRandom().generateSeed(16)));
        Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-------"));
      }
      return marker;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the self-check's marker file " + marker, e);
    }
  }

  /** The server's effective uid, from /proc (no native call needed). */
  static int effectiveUid() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("Uid:")) return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: assume unprivileged
    }
    return -1;
  }
}
