package lab.exactlyonce.sandbox.confinement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Starts {@link ConfinementProbe} through one launcher, with a loopback socket to reach, a server-only file to read,
 * the JDK to write into and a marked outside process to kill, and turns what it reports (completed from outside
 * where it cannot see its own {@code /proc}) into a {@link ProbeVerdict}.
 */
final class ProbeRun {
  static final List<String> PROBE_JVM_FLAGS = List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xmx32m",
      "-XX:-UsePerfData", "-XX:+DisableAttachMechanism");
  private static final long TIMEOUT_SECONDS = 30;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A probe that answered (verdict) or did not start or answer (failure, with its last words). */
  record Outcome(Launcher launcher, Optional<ProbeVerdict> verdict, String failure) {
    ConfinementLevel level() {
      return verdict.map(ProbeVerdict::level).orElse(ConfinementLevel.NONE);
    }
  }

  /** What the probe tries besides the fixed attempts: more server-only files to read (tests add the data dir's). */
  record Targets(Path serverOnlyFile, List<Path> moreServerFiles) {}

  private ProbeRun() {
  }

  static Outcome run(Launcher launcher, Path probeDir, Targets targets, HostTools tools) {
    Process sleeper = null;
    Process probe = null;
    Launcher.Cell cell = null;
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      server.configureBlocking(false);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      ProcessBuilder sleeping = new ProcessBuilder(HostTools.find("sleep").toString(), "600");
      sleeping.environment().clear();
      sleeper = sleeping.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();

      cell = launcher.open(Files.createDirectories(probeDir));
      var args = new ArrayList<String>(List.of("--connect", String.valueOf(port)));
      for (Path file : allServerFiles(targets)) args.addAll(List.of("--read", file.toString()));
      args.addAll(List.of("--write", Path.of(System.getProperty("java.home")).resolve("lib").toString(),
          "--kill", String.valueOf(sleeper.pid()), "--unshare", tools.unshare().toString()));
      List<String> java = launcher.javaCommand(cell, PROBE_JVM_FLAGS, ConfinementProbe.class.getName(), args);
      probe = Launcher.processBuilder(launcher.wrap(cell, java, List.of(), List.of(tools.unshare()))).start();
      Process started = probe;
      CompletableFuture<String> stderr = reading(() -> readAll(started, true), "confinement-probe-err");
      CompletableFuture<String> line = reading(() -> firstLine(started), "confinement-probe-out");
      String json;
      try {
        json = line.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        return new Outcome(launcher, Optional.empty(), "no answer within " + TIMEOUT_SECONDS + " s");
      }
      if (json == null) {
        probe.waitFor(5, TimeUnit.SECONDS);
        String said = lastLines(stderr.completeOnTimeout("", 2, TimeUnit.SECONDS).join());
        return new Outcome(launcher, Optional.empty(), "exited with code "
            + (probe.isAlive() ? "unknown" : probe.exitValue()) + (said.isEmpty() ? "" : ": " + said));
      }
      JsonNode report = JSON.readTree(json);
      Map<String, String> status = strings(report.path("status"));
      Map<String, String> namespaces = strings(report.path("ns"));
      if (status.isEmpty() || namespaces.isEmpty()) fromOutside(probe, status, namespaces);
      probe.getOutputStream().close();
      probe.waitFor(5, TimeUnit.SECONDS);

      var env = new TreeSet<String>();
      report.path("env").forEach(n -> env.add(n.asText()));
      var attempts = new LinkedHashMap<String, ConfinementProbe.Attempt>();
      report.path("attempts").forEach(a -> attempts.put(a.path("what").asText(), new ConfinementProbe.Attempt(
          a.path("what").asText(), a.path("done").asBoolean(), a.path("detail").asText())));
      boolean connected = server.accept() != null;
      var kill = attempts.get("kill " + sleeper.pid());
      boolean killed = !sleeper.isAlive() || kill != null && kill.done();
      var seen = new ProbeVerdict.Observed(status, namespaces, env, attempts, connected, killed);
      return new Outcome(launcher, Optional.of(ProbeVerdict.of(seen, ownNamespaces())), "");
    } catch (IOException | ExecutionException | RuntimeException e) {
      return new Outcome(launcher, Optional.empty(), "could not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(launcher, Optional.empty(), "interrupted");
    } finally {
      if (probe != null) Launcher.kill(probe);
      if (sleeper != null) sleeper.destroyForcibly();
      if (cell != null) {
        if (probe != null) probe.onExit().join();   // its uid is free only once its process has gone
        launcher.close(cell);
      }
    }
  }

  /** The server's own namespaces, to compare a probe's with. */
  static Map<String, String> ownNamespaces() {
    var ns = new LinkedHashMap<String, String>();
    for (String name : List.of("net", "mnt", "pid", "user", "ipc", "uts", "cgroup")) {
      try {
        ns.put(name, Files.readSymbolicLink(Path.of("/proc/self/ns/" + name)).toString());
      } catch (IOException | RuntimeException e) {
        // not readable here
      }
    }
    return ns;
  }

  private static List<Path> allServerFiles(Targets targets) {
    var files = new ArrayList<Path>();
    files.add(targets.serverOnlyFile());
    files.addAll(targets.moreServerFiles());
    return files;
  }

  /**
   * Without its own {@code /proc} the probe cannot read its status: read it from outside, from the JVM the launcher
   * started (the deepest descendant).
   */
  private static void fromOutside(Process probe, Map<String, String> status, Map<String, String> namespaces) {
    long pid = Launcher.jvm(probe.toHandle()).map(ProcessHandle::pid).orElse(probe.pid());
    try {
      ConfinementProbe.status(Path.of("/proc/" + pid + "/status")).forEach(status::putIfAbsent);
    } catch (IOException | RuntimeException e) {
      // gone or not ours to read: the checks stay failed
    }
    for (String name : List.of("net", "mnt", "pid", "user", "ipc", "uts", "cgroup")) {
      try {
        namespaces.putIfAbsent(name, Files.readSymbolicLink(Path.of("/proc/" + pid + "/ns/" + name)).toString());
      } catch (IOException | RuntimeException e) {
        // not ours to read
      }
    }
  }

  /** Blocking reads on threads of their own (a small machine's common pool may have a single thread). */
  private static CompletableFuture<String> reading(Supplier<String> read, String name) {
    var result = new CompletableFuture<String>();
    Thread t = new Thread(() -> result.complete(read.get()), name);
    t.setDaemon(true);
    t.start();
    return result;
  }

  private static Map<String, String> strings(JsonNode node) {
    var map = new LinkedHashMap<String, String>();
    node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
    return map;
  }

  private static String firstLine(Process p) {
    try {
      var reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      return reader.readLine();
    } catch (IOException e) {
      return null;
    }
  }

  private static String readAll(Process p, boolean stderr) {
    try {
      return new String((stderr ? p.getErrorStream() : p.getInputStream()).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static String lastLines(String text) {
    List<String> lines = text.strip().lines().toList();
    String tail = String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    return tail.length() <= 300 ? tail : tail.substring(0, 300) + "...";
  }
}
