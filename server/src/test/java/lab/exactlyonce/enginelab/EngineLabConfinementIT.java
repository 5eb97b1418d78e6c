package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TakesTurns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Attacks on the real engines from the host, asserting what must not happen: another local account reaching the
 * broker, its controller or Flink's REST endpoint (no password asks it to stop cancelling jobs or creating topics),
 * the engines running as the server's uid, with new privileges or without the filter, and a run whose topic names
 * someone could guess and create first. One engine process, started by a real run.
 */
@Tag("enginelab")
@TakesTurns("engine-lab")
class EngineLabConfinementIT {
  /** Any uid of the host that is neither the server's, nor the engines', nor a worker's. */
  private static final String STRANGER = "65123";
  private static final boolean ROOT = "0".equals(status(Path.of("/proc/self/status")).get("Uid"));

  private static EngineProcess engines;
  private static JsonNode firstRun;

  @BeforeAll
  static void start() throws Exception {
    engines = new EngineProcess(EngineLabIT.settings());
    engines.run("start", Map.of(), phase -> { });   // both engines: the broker and the Flink cluster
    firstRun = engines.run("fencing", Map.of(), phase -> { });
  }

  @AfterAll
  static void stop() {
    engines.close();
  }

  @Test
  void the_engine_jvm_runs_as_its_own_uid_with_no_new_privileges_and_the_filter_in_its_own_namespaces()
      throws IOException {
    Path proc = Path.of("/proc", String.valueOf(engines.pid().orElseThrow()));
    Map<String, String> status = status(proc.resolve("status"));
    // an unprivileged server has no other uid to give them: there the namespaces are all they get
    if (ROOT) assertEquals(String.valueOf(EngineLabIT.settings().uid()), status.get("Uid"), "not the server's uid 0");
    assertEquals("1", status.get("NoNewPrivs"), "NoNewPrivs");
    assertEquals("2", status.get("Seccomp"), "Seccomp");
    assertEquals("0000000000000000", status.get("CapEff"), "CapEff");
    for (String ns : List.of("net", "mnt", "pid")) {
      assertNotEquals(Files.readSymbolicLink(Path.of("/proc/self/ns", ns)),
          Files.readSymbolicLink(proc.resolve("ns").resolve(ns)), "the engines share the server's " + ns);
    }
  }

  /**
   * Every TCP port the engine JVM listens on (the broker's, the controller's, Flink's REST, RPC and blob ports): from
   * inside its network namespace a stranger's connection is accepted (so the ports are real), from the host refused.
   */
  @Test
  void no_other_account_on_the_host_reaches_a_port_of_the_engines() throws Exception {
    assumeTrue(ROOT, "switching to a stranger's uid takes root");
    long pid = engines.pid().orElseThrow();
    Set<Integer> ports = listening(pid);
    assertTrue(ports.size() >= 3, "the broker, its controller and Flink's REST endpoint listen: " + ports);
    for (int port : ports) {
      assertEquals(0, connectAsStranger(port, List.of("nsenter", "--net=/proc/" + pid + "/ns/net")),
          "inside the engines' namespace port " + port + " accepts");
      assertNotEquals(0, connectAsStranger(port, List.of()), "uid " + STRANGER + " reached the engines' port " + port);
    }
  }

  /** Its directory (its temp dir, with Kafka's log dirs and Flink's files) is its uid's alone. */
  @Test
  void no_other_account_opens_the_engines_files() throws Exception {
    assumeTrue(ROOT, "switching to a stranger's uid takes root");
    long pid = engines.pid().orElseThrow();
    Path dir = Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
    assertEquals(EngineLabIT.settings().uid(), Files.getAttribute(dir, "unix:uid"), dir.toString());
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> kafka = files.filter(f -> f.getFileName().toString().startsWith("kafka")).toList();
      assertTrue(!kafka.isEmpty(), "the broker keeps its logs under the engines' temp dir " + dir);
      for (Path f : kafka) assertEquals(EngineLabIT.settings().uid(), Files.getAttribute(f, "unix:uid"), f.toString());
    }
    assertNotEquals(0, asStranger(List.of(), "ls " + dir), "uid " + STRANGER + " listed " + dir);
  }

  @Test
  void two_runs_name_their_topics_and_transactional_ids_unguessably() throws Exception {
    JsonNode second = engines.run("fencing", Map.of(), phase -> { });
    String first = firstRun.get("runName").asText();
    String next = second.get("runName").asText();
    assertTrue(first.matches("[0-9a-f]{32}"), first);
    assertTrue(next.matches("[0-9a-f]{32}"), next);
    // neither a counter nor a clock: consecutive runs' names lie far apart
    BigInteger distance = new BigInteger(first, 16).subtract(new BigInteger(next, 16)).abs();
    assertTrue(distance.bitLength() > 64, first + " and " + next + " are " + distance + " apart");
    assertEquals(firstRun.get("readers").toString(), second.get("readers").toString());
  }

  /** The ports of the listening TCP sockets the process holds, from its network namespace's socket table. */
  private static Set<Integer> listening(long pid) throws IOException {
    Set<String> inodes;
    try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      inodes = fds.map(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
          return "";
        }
      }).filter(link -> link.startsWith("socket:[")).map(link -> link.substring(8, link.length() - 1))
          .collect(Collectors.toSet());
    }
    var ports = new TreeSet<Integer>();
    for (String table : List.of("tcp", "tcp6")) {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/net/" + table))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
          ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
        }
      }
    }
    return ports;
  }

  /** The exit code of a stranger's bash opening a TCP connection to 127.0.0.1:{@code port}. */
  private static int connectAsStranger(int port, List<String> prefix) throws Exception {
    return asStranger(prefix, "exec 3<>/dev/tcp/127.0.0.1/" + port);
  }

  /** The exit code of {@code script} run by bash as uid {@value #STRANGER}, after {@code prefix}. */
  private static int asStranger(List<String> prefix, String script) throws Exception {
    var command = new ArrayList<>(prefix);
    command.addAll(List.of("setpriv", "--reuid", STRANGER, "--regid", STRANGER, "--clear-groups", "bash", "-c",
        script));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS), "no answer from " + command);
    return p.exitValue();
  }

  private static Map<String, String> status(Path file) {
    try {
      return Files.readAllLines(file).stream().filter(l -> l.contains(":"))
          .collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')),
              l -> l.substring(l.indexOf(':') + 1).trim().split("\\s+")[0], (a, b) -> a));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
