package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The self-check on this machine (root, bubblewrap installed): the chain reaches hardened, and a process started
 * through the chosen launcher, as a worker is, cannot do what a learner who escaped the JVM's allowlist would try.
 * The probe runs once for the class; each row of the hostile table reads its part of the report.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfinementCheckTest {
  static final ConfinementCheck.Demand AUTO = new ConfinementCheck.Demand(true, ConfinementLevel.NONE, 64999, "auto");
  Path tempRoot;
  Path dataDir;
  ConfinementCheck.Selection selection;
  ProbeRun.Outcome attack;
  ProbeVerdict.Observed seen;

  @BeforeAll
  void probe() throws IOException {
    assertEquals(0, ConfinementCheck.effectiveUid(), "these tests describe this machine: the build runs as root");
    tempRoot = Files.createTempDirectory("eolab-confinement-test-");
    dataDir = Files.createTempDirectory("eolab-data-");
    Path secret = dataDir.resolve("instructor-secret");
    Files.writeString(secret, "s3cret");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    selection = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, HostTools.installed());
    attack = ConfinementCheck.probe(selection.launcher(), tempRoot, List.of(secret), HostTools.installed());
    assertTrue(attack.verdict().isPresent(), attack.failure());
  }

  @AfterAll
  void clean() throws IOException {
    for (Path root : List.of(tempRoot, dataDir)) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  ProbeVerdict verdict() {
    return attack.verdict().orElseThrow();
  }

  ProbeVerdict.Check check(String name) {
    return verdict().checks().stream().filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no check " + name + " in " + verdict().checks()));
  }

  @Test
  void this_machine_reaches_hardened_with_bubblewrap_as_the_worker_uid() {
    assertEquals(ConfinementLevel.HARDENED, selection.report().level(), selection.report().toString());
    assertEquals("bwrap (all namespaces, seccomp, fresh /proc) as uid 64999", selection.report().launcher());
    assertEquals(List.of(), verdict().missingFor(ConfinementLevel.HARDENED));
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        arguments("connect to a loopback port the server listens on", "server's loopback port unreachable"),
        arguments("open an AF_INET socket", "internet socket refused"),
        arguments("read the server's marker file and the data dir's instructor-secret", "server-only file unreadable"),
        arguments("write into java.home", "JDK read-only"),
        arguments("kill a marked process outside", "outside process not signalled"),
        arguments("create a nested user namespace", "nested user namespace refused"),
        arguments("see the server's environment (INSTRUCTOR_SECRET, JDBC_PASSWORD)", "environment cleared"),
        arguments("keep capabilities", "CapEff 0"),
        arguments("run as root", "uid not 0"),
        arguments("gain privileges through exec", "NoNewPrivs 1"),
        arguments("call ptrace, mount, unshare (seccomp filter mode)", "Seccomp 2"),
        arguments("share the server's network namespace", "own net namespace"),
        arguments("share the server's mount namespace (its files)", "own mnt namespace"),
        arguments("share the server's pid namespace (its processes)", "own pid namespace"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void an_escaped_learner_cannot(String attackDescription, String check) {
    List<ProbeVerdict.Check> all = verdict().checks().stream().filter(c -> c.name().equals(check)).toList();
    assertFalse(all.isEmpty(), "no check " + check);
    for (ProbeVerdict.Check c : all) assertTrue(c.passed(), attackDescription + " succeeded: " + c.seen());
  }

  @Test
  void both_server_files_were_tried_and_neither_is_even_visible() {
    List<ProbeVerdict.Check> reads = verdict().checks().stream()
        .filter(c -> c.name().equals("server-only file unreadable")).toList();
    assertEquals(2, reads.size(), reads.toString());
    for (ProbeVerdict.Check c : reads) {
      assertTrue(c.seen().startsWith("java.nio.file.NoSuchFileException"), c.seen());
    }
  }

  @Test
  void the_worker_view_is_uid_64999_without_capabilities_under_seccomp() {
    // the status lines as the probe JVM read them from its own /proc/self/status
    assertEquals("Uid 64999", check("uid not 0").seen());
    assertEquals("CapEff 0000000000000000", check("CapEff 0").seen());
    assertEquals("NoNewPrivs 1", check("NoNewPrivs 1").seen());
    assertEquals("Seccomp 2", check("Seccomp 2").seen());
    assertEquals("only [LANG, PATH, PWD]", check("environment cleared").seen());
    Set<String> differ = Set.of("net", "mnt", "pid");
    var server = ProbeRun.ownNamespaces();
    for (String ns : differ) assertNotEquals(server.get(ns), check("own " + ns + " namespace").seen(), ns);
    assertTrue(check("internet socket refused").seen().contains("Permission denied"),
        "EACCES from the seccomp filter: " + check("internet socket refused").seen());
    assertTrue(check("nested user namespace refused").seen().endsWith("Operation not permitted"),
        "EPERM from the seccomp filter's unshare rule: " + check("nested user namespace refused").seen());
  }

  /**
   * The weaker bubblewrap variants, for hosts that refuse --disable-userns or a fresh /proc (Docker with the shipped
   * profile), still reach hardened where they can run: without /proc the server reads the status from outside.
   */
  @Test
  void every_bubblewrap_variant_reaches_hardened_here() {
    LaunchHost host = ConfinementCheck.prepareHost(AUTO, ConfinementProbe.class.getName(), tempRoot, HostTools.installed());
    List<Launcher> bwraps = LauncherChain.candidates(host).stream().filter(l -> l.name().startsWith("bwrap")).toList();
    assertEquals(3, bwraps.size());
    int n = 0;
    for (Launcher launcher : bwraps) {
      ProbeRun.Outcome outcome = ProbeRun.run(launcher, tempRoot.resolve("variant-" + n++),
          new ProbeRun.Targets(tempRoot.resolve("server-only-marker"), List.of()), HostTools.installed());
      assertEquals(ConfinementLevel.HARDENED, outcome.level(), launcher.name() + ": " + outcome.failure()
          + outcome.verdict().map(v -> v.missingFor(ConfinementLevel.HARDENED).toString()).orElse(""));
    }
  }

  @Test
  void hardened_is_refused_with_one_line_when_bubblewrap_is_missing() {
    var demand = new ConfinementCheck.Demand(true, ConfinementLevel.HARDENED, 64999, "hardened");
    HostTools noBwrap = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
    ConfinementException e = assertThrows(ConfinementException.class,
        () -> ConfinementCheck.select(demand, ConfinementProbe.class.getName(), tempRoot, noBwrap));
    String message = e.getMessage();
    assertTrue(message.startsWith("--sandbox-confinement hardened: the best launcher here (unshare --net as uid "
        + "64999) reached network; missing: own mnt namespace ("), message);
    assertTrue(message.endsWith("; Seccomp 2 (Seccomp 0); nested user namespace refused (unshare --user true "
        + "succeeded); internet socket refused (created java.nio.channels.SocketChannel[unconnected]); "
        + "bwrap (all namespaces, seccomp, fresh /proc) as uid 64999 failed: exited with code 127: setpriv: failed to "
        + "execute /nonexistent/bwrap: No such file or directory"), message);
    assertFalse(message.contains("\n"), "one line: " + message);
  }

  @Test
  void auto_where_no_namespace_is_allowed_still_starts_plain_children_with_a_cleared_environment() {
    // as in Docker's default seccomp profile: neither bubblewrap nor unshare can work
    HostTools installed = HostTools.installed();
    HostTools nothing = new HostTools(installed.shell(), Path.of("/nonexistent/bwrap"), installed.setpriv(),
        Path.of("/nonexistent/unshare"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, nothing);
    assertEquals(ConfinementLevel.NONE, chosen.report().level(), chosen.report().toString());
    assertEquals("plain child process as uid 64999", chosen.report().launcher());
  }

  @Test
  void auto_without_bubblewrap_settles_for_the_network_namespace() {
    HostTools noBwrap = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, noBwrap);
    assertEquals(ConfinementLevel.NETWORK, chosen.report().level(), chosen.report().toString());
    assertEquals("unshare --net as uid 64999", chosen.report().launcher());
  }
}
