package lab.exactlyonce.sandbox.confinement;

import com.sun.jna.Native;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * How the engine lab's JVM (a Kafka broker and a Flink cluster, which anyone reaching their ports could drive) is
 * confined: as a worker is, by util-linux's {@code unshare} (mount, pid, ipc, uts and a network namespace whose only
 * interface is its own loopback, so its ports exist for nobody outside) and {@code setpriv} (a uid of its own, no
 * capabilities, no new privileges), with the seccomp filter the JVM loads itself ({@link ConfinedMain}), in its
 * internet-socket variant, since the engines talk over that loopback. Before the first start each launcher, strongest
 * first, starts a small JVM the same way that reports what it got; the first that works is kept. Where the server is
 * not root the namespaces come with a user namespace and no uid switch; where no namespace is allowed the engines
 * still run, and {@link #isolated()} is false: their ports are then open to every local account.
 */
public final class EngineConfinement {
  private static final long CHECK_SECONDS = 30;
  /** What a check JVM needs: little heap, no compiler worth waiting for. */
  private static final List<String> CHECK_FLAGS = List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx32m",
      "-XX:-UsePerfData");

  private final Launcher launcher;
  private final String found;

  private EngineConfinement(Launcher launcher, String found) {
    this.launcher = launcher;
    this.found = found;
  }

  /**
   * Stages the class path in {@code root} (the engine jar, and just the confinement and JNA classes: never the app's
   * own libraries, which differ from the engines') and picks the strongest launcher that works here.
   *
   * @param uid the uid the engines run as when the server is root
   * @param log told one line per launcher that failed its check
   */
  public static EngineConfinement prepare(Path root, Path engineJar, int uid, HostTools tools,
                                          Consumer<String> log) {
    LaunchHost host = host(root, engineJar, uid, tools);
    var failures = new ArrayList<String>();
    for (Launcher candidate : candidates(host)) {
      Optional<String> trouble = check(candidate, root.resolve("check"), host);
      if (trouble.isEmpty()) {
        String tried = failures.isEmpty() ? "" : " (" + String.join("; ", failures) + ")";
        return new EngineConfinement(candidate, candidate.name() + tried);
      }
      failures.add(candidate.name() + " failed: " + trouble.get());
      log.accept("engine lab confinement: " + candidate.name() + " failed: " + trouble.get());
    }
    throw new ConfinementException("no launcher could start the engine lab's JVM: " + String.join("; ", failures));
  }

  /** The launcher chosen and, where stronger ones failed, why. */
  public String description() {
    return found;
  }

  /** Whether the engines have a network namespace of their own (else their ports are open to local accounts). */
  public boolean isolated() {
    return launcher.target().atLeast(ConfinementLevel.NETWORK);
  }

  /** A directory of its own for one engine process: owned by the engine uid and closed to everyone else. */
  public Launcher.Cell open(Path dir) throws IOException {
    return launcher.open(dir);
  }

  public void close(Launcher.Cell cell) {
    launcher.close(cell);
  }

  /** The command that starts {@code mainClass} of the engine jar confined, with {@code jvmFlags}. */
  public List<String> command(Launcher.Cell cell, List<String> jvmFlags, String mainClass) {
    return command(launcher, cell, jvmFlags, mainClass);
  }

  /** {@link ConfinedMain} through {@code launcher}, which confines the JVM, then runs {@code mainClass}. */
  private static List<String> command(Launcher launcher, Launcher.Cell cell, List<String> jvmFlags, String mainClass) {
    return launcher.wrap(cell, launcher.javaCommand(cell, jvmFlags, ConfinedMain.class.getName(), List.of(mainClass)),
        List.of());
  }

  static LaunchHost host(Path root, Path engineJar, int uid, HostTools tools) {
    try {
      // traversable by the engine uid (to reach its own directory and the class path), not listable
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
      Path stage = root.resolve("classpath");
      var classPath = new ArrayList<>(ClassPathStage.stage(List.of(engineJar.toAbsolutePath()), stage));
      Path confinement = ClassPathStage.stageClasses(List.of(ClassPathStage.location(ConfinedMain.class),
          ClassPathStage.location(Native.class)),
          List.of(ClassPathStage.SANDBOX_PACKAGE_DIR + "/confinement", "com/sun/jna"), stage.resolve("confinement"));
      classPath.add(new ClassPathStage.Entry(confinement, "confinement"));
      Optional<Path> jna = ClassPathStage.stageJnaLibrary(stage);
      boolean rootServer = ConfinementCheck.effectiveUid() == 0;
      Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
      // the engines' one uid is theirs by option, never passed over: their check JVM may still be ending as they start
      return new LaunchHost(tools, javaHome, Optional.empty(), classPath, jna, Optional.empty(),
          rootServer ? Optional.of(new WorkerUids(uid, uid, Set::of)) : Optional.empty(), false, rootServer,
          rootServer ? EngineUser.passwdNaming(uid, root) : Optional.empty());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the engine lab's directory " + root, e);
    }
  }

  /** Strongest first; the filter only where there is a syscall table for this architecture and JNA's native part. */
  static List<Launcher> candidates(LaunchHost host) {
    boolean seccomp = SeccompFilter.forArch(System.getProperty("os.arch")).isPresent()
        && host.jnaLibraryDir().isPresent();
    String filter = seccomp ? ", seccomp loaded by the JVM, not dumpable" : ", no seccomp filter for this architecture";
    String user = host.root() ? "" : ", user namespace";
    var chain = new ArrayList<Launcher>();
    chain.add(new Launcher("unshare (all namespaces" + user + ", own loopback)" + filter, ConfinementLevel.HARDENED,
        Launcher.Kind.UNSHARE_ALL, false, false, seccomp, true, host));
    chain.add(new Launcher("unshare (network namespace" + user + ", own loopback)" + filter, ConfinementLevel.NETWORK,
        Launcher.Kind.UNSHARE_NET, false, false, seccomp, true, host));
    if (seccomp) {
      chain.add(new Launcher("plain child process (the host's network)" + filter, ConfinementLevel.NONE,
          Launcher.Kind.PLAIN, false, false, true, true, host));
    }
    chain.add(new Launcher("plain child process (the host's network)", ConfinementLevel.NONE, Launcher.Kind.PLAIN,
        false, false, false, true, host));
    return chain;
  }

  /**
   * Starts {@link ConfinedMain}'s status check through {@code candidate}: empty when it answered with what the
   * launcher promises (a network namespace not the server's, the filter where it loads one), else what went wrong.
   */
  static Optional<String> check(Launcher candidate, Path dir, LaunchHost host) {
    Launcher.Cell cell = null;
    Process process = null;
    try {
      cell = candidate.open(Files.createDirectories(dir));
      ProcessBuilder builder = Launcher.processBuilder(command(candidate, cell, CHECK_FLAGS, ConfinedMain.STATUS));
      builder.redirectErrorStream(true);
      process = builder.start();
      Process started = process;
      var output = new CompletableFuture<List<String>>();
      Thread reader = new Thread(() -> output.complete(lines(started)), "engine-confinement-check");
      reader.setDaemon(true);   // a thread of its own: a small machine's common pool may have one thread, taken
      reader.start();
      if (!process.waitFor(CHECK_SECONDS, TimeUnit.SECONDS)) {
        return Optional.of("no answer within " + CHECK_SECONDS + " s");
      }
      List<String> said = output.get(5, TimeUnit.SECONDS);
      String last = said.isEmpty() ? "" : said.get(said.size() - 1);
      if (process.exitValue() != 0) return Optional.of("exited with code " + process.exitValue() + ": " + last);
      Map<String, String> status = parse(last);
      if (candidate.target().atLeast(ConfinementLevel.NETWORK)
          && status.getOrDefault("net", "").equals(ProbeRun.ownNamespaces().get("net"))) {
        return Optional.of("the server's network namespace");
      }
      if (candidate.seccomp() && !"2".equals(status.get("Seccomp"))) {
        return Optional.of("Seccomp " + status.get("Seccomp"));
      }
      return Optional.empty();
    } catch (IOException | RuntimeException | ExecutionException | TimeoutException e) {
      return Optional.of("could not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted");
    } finally {
      if (process != null) {
        Launcher.kill(process).onExit().join();   // its uid is free only once its process has gone
      }
      if (cell != null) candidate.close(cell);
    }
  }

  private static Map<String, String> parse(String line) {
    var map = new HashMap<String, String>();
    String[] words = line.trim().split("\\s+");
    for (int i = 0; i + 1 < words.length; i += 2) map.put(words[i], words[i + 1]);
    return map;
  }

  private static List<String> lines(Process process) {
    try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      return reader.lines().toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
