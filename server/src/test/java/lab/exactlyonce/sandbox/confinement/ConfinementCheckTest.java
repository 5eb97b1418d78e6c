package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

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
 * The self-check on this machine (root, bubblewrap installed): the chain reaches hardened with bubblewrap and, with
 * bubblewrap turned off, with util-linux and the filter the worker loads itself; a process started through the
 * chosen launcher, as a worker is, cannot do what a learner who escaped the JVM's allowlist would try. The probe runs
 * once per path for the class; each row of the hostile table reads its part of the report.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfinementCheckTest {
  static final String UIDS = "64000-64999";
  static final ConfinementCheck.Demand AUTO = demand(ConfinementLevel.NONE, true, "auto");
  static final ConfinementCheck.Demand AUTO_WITHOUT_BWRAP = demand(ConfinementLevel.NONE, false, "auto");
  static final String UNSHARE = "unshare (all namespaces), seccomp loaded by the worker, not dumpable, a uid of its own "
      + "from " + UIDS;
  Path tempRoot;
  Path dataDir;
  ConfinementCheck.Selection selection;
  ProbeRun.Outcome attack;
  ConfinementCheck.Selection selectionWithoutBwrap;
  ProbeRun.Outcome attackWithoutBwrap;

  static ConfinementCheck.Demand demand(ConfinementLevel minimum, boolean bubblewrap, String flag) {
    return new ConfinementCheck.Demand(true, minimum, new WorkerUids(64000, 64999), bubblewrap, flag);
  }

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
    selectionWithoutBwrap = ConfinementCheck.select(AUTO_WITHOUT_BWRAP, ConfinementProbe.class.getName(), tempRoot,
        HostTools.installed());
    attackWithoutBwrap = ConfinementCheck.probe(selectionWithoutBwrap.launcher(), tempRoot, List.of(secret),
        HostTools.installed());
    assertTrue(attackWithoutBwrap.verdict().isPresent(), attackWithoutBwrap.failure());
  }

  @AfterAll
  void clean() throws IOException {
    for (Path root : List.of(tempRoot, dataDir)) {
      try (Stream<Path> paths = Files.walk(root)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  ProbeVerdict verdict(String path) {
    return (path.equals(WITH_BWRAP) ? attack : attackWithoutBwrap).verdict().orElseThrow();
  }

  ProbeVerdict verdict() {
    return verdict(WITH_BWRAP);
  }

  ProbeVerdict.Check check(String path, String name) {
    return verdict(path).checks().stream().filter(c -> c.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no check " + name + " in " + verdict(path).checks()));
  }

  static final String WITH_BWRAP = "bubblewrap";
  static final String WITHOUT_BWRAP = "util-linux, bubblewrap off";

  @Test
  void this_machine_reaches_hardened_with_bubblewrap_each_worker_with_a_uid_of_its_own() {
    assertEquals(ConfinementLevel.HARDENED, selection.report().level(), selection.report().toString());
    assertEquals("bwrap (all namespaces, seccomp, fresh /proc), a uid of its own from " + UIDS,
        selection.report().launcher());
    assertEquals(List.of(), verdict().missingFor(ConfinementLevel.HARDENED));
  }

  @Test
  void without_bubblewrap_this_machine_reaches_hardened_with_util_linux_and_the_workers_own_filter() {
    assertEquals(ConfinementLevel.HARDENED, selectionWithoutBwrap.report().level(),
        selectionWithoutBwrap.report().toString());
    assertEquals(UNSHARE, selectionWithoutBwrap.report().launcher());
    assertEquals(List.of(), verdict(WITHOUT_BWRAP).missingFor(ConfinementLevel.HARDENED));
  }

  static Stream<Arguments> hostile() {
    return Stream.of(WITH_BWRAP, WITHOUT_BWRAP).flatMap(path -> attacks().map(a -> arguments(path, a.get()[0],
        a.get()[1])));
  }

  static Stream<Arguments> attacks() {
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
        arguments("reach any network", "no network"),
        arguments("share the server's network namespace", "own net namespace"),
        arguments("share the server's mount namespace (its files)", "own mnt namespace"),
        arguments("share the server's pid namespace (its processes)", "own pid namespace"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("hostile")
  void an_escaped_learner_cannot(String path, String attackDescription, String check) {
    List<ProbeVerdict.Check> all = verdict(path).checks().stream().filter(c -> c.name().equals(check)).toList();
    assertFalse(all.isEmpty(), "no check " + check);
    for (ProbeVerdict.Check c : all) assertTrue(c.passed(), attackDescription + " succeeded: " + c.seen());
  }

  @Test
  void with_bubblewrap_both_server_files_were_tried_and_neither_is_even_visible() {
    List<ProbeVerdict.Check> reads = verdict().checks().stream()
        .filter(c -> c.name().equals("server-only file unreadable")).toList();
    assertEquals(2, reads.size(), reads.toString());
    for (ProbeVerdict.Check c : reads) {
      assertTrue(c.seen().startsWith("java.nio.file.NoSuchFileException"), c.seen());
    }
  }

  @Test
  void without_bubblewrap_both_server_files_were_tried_and_the_worker_uid_may_not_open_them() {
    List<ProbeVerdict.Check> reads = verdict(WITHOUT_BWRAP).checks().stream()
        .filter(c -> c.name().equals("server-only file unreadable")).toList();
    assertEquals(2, reads.size(), reads.toString());
    for (ProbeVerdict.Check c : reads) {
      assertTrue(c.seen().startsWith("java.nio.file.AccessDeniedException"), c.seen());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {WITH_BWRAP, WITHOUT_BWRAP})
  void the_worker_view_is_a_uid_of_its_own_without_capabilities_under_seccomp(String path) {
    // the status lines as the probe JVM read them from its own /proc/self/status
    assertTrue(check(path, "uid not 0").seen().matches("Uid 64[0-9]{3}"), check(path, "uid not 0").seen());
    assertEquals("CapEff 0000000000000000", check(path, "CapEff 0").seen());
    assertEquals("NoNewPrivs 1", check(path, "NoNewPrivs 1").seen());
    assertEquals("Seccomp 2", check(path, "Seccomp 2").seen());
    assertEquals("only [LANG, PATH, PWD]", check(path, "environment cleared").seen());   // the shell sets PWD
    Set<String> differ = Set.of("net", "mnt", "pid");
    var server = ProbeRun.ownNamespaces();
    for (String ns : differ) assertNotEquals(server.get(ns), check(path, "own " + ns + " namespace").seen(), ns);
    assertTrue(check(path, "internet socket refused").seen().contains("Permission denied"),
        "EACCES from the seccomp filter: " + check(path, "internet socket refused").seen());
    assertTrue(check(path, "nested user namespace refused").seen().endsWith("Operation not permitted"),
        "EPERM from the seccomp filter's unshare rule: " + check(path, "nested user namespace refused").seen());
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
  void hardened_is_refused_with_one_line_where_neither_bubblewrap_nor_unshare_runs() {
    var demand = demand(ConfinementLevel.HARDENED, true, "hardened");
    HostTools installed = HostTools.installed();
    HostTools neither = new HostTools(installed.shell(), Path.of("/nonexistent/bwrap"), installed.setpriv(),
        Path.of("/nonexistent/unshare"));
    ConfinementException e = assertThrows(ConfinementException.class,
        () -> ConfinementCheck.select(demand, ConfinementProbe.class.getName(), tempRoot, neither));
    String message = e.getMessage();
    assertTrue(message.startsWith("--sandbox-confinement hardened: the best launcher here (plain child process, "
        + "seccomp loaded by the worker, not dumpable, a uid of its own from " + UIDS + ") reached network; missing: "
        + "own net namespace ("), message);
    assertTrue(message.endsWith("; bwrap (all namespaces, seccomp, fresh /proc), a uid of its own from " + UIDS
        + " failed: exited with code 127: setpriv: failed to execute /nonexistent/bwrap: No such file or directory"),
        message);
    assertFalse(message.contains("\n"), "one line: " + message);
  }

  @Test
  void auto_where_no_namespace_is_allowed_still_has_workers_load_the_filter_as_uids_of_their_own() {
    // as in Docker's default seccomp profile: neither bubblewrap nor unshare's namespaces work (the unshare tool is
    // there, as it is in the image, for the probe's nested-namespace attempt)
    HostTools noBwrap = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, noBwrap,
        host -> LauncherChain.candidates(host).stream().filter(l -> !l.name().startsWith("unshare")).toList());
    assertEquals(ConfinementLevel.NETWORK, chosen.report().level(), chosen.report().toString());
    assertEquals("plain child process, seccomp loaded by the worker, not dumpable, a uid of its own from " + UIDS,
        chosen.report().launcher());
    ProbeVerdict seen = ConfinementCheck.probe(chosen.launcher(), tempRoot, List.of(), noBwrap).verdict()
        .orElseThrow();
    for (String check : List.of("no network", "server's loopback port unreachable", "NoNewPrivs 1", "Seccomp 2",
        "internet socket refused", "nested user namespace refused", "uid not 0", "CapEff 0",
        "environment cleared", "server-only file unreadable", "JDK read-only")) {
      assertTrue(seen.checks().stream().filter(c -> c.name().equals(check)).allMatch(ProbeVerdict.Check::passed),
          check + ": " + seen.checks());
    }
    assertEquals(List.of("own net namespace", "own mnt namespace", "own pid namespace"), chosen.report().missing());
    assertEquals("install bubblewrap (Debian: apt-get install bubblewrap)", chosen.report().nextStep());
  }

  @Test
  void auto_where_nothing_but_a_plain_child_works_says_so() {
    HostTools installed = HostTools.installed();
    HostTools nothing = new HostTools(installed.shell(), Path.of("/nonexistent/bwrap"), installed.setpriv(),
        Path.of("/nonexistent/unshare"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, nothing,
        host -> LauncherChain.candidates(host).stream().filter(l -> !l.name().contains("seccomp loaded")).toList());
    assertEquals(ConfinementLevel.NONE, chosen.report().level(), chosen.report().toString());
    assertEquals("plain child process, a uid of its own from " + UIDS, chosen.report().launcher());
    assertTrue(chosen.report().missing().contains("no network"), chosen.report().missing().toString());
  }

  @Test
  void auto_where_bubblewrap_is_not_installed_reaches_hardened_with_util_linux() {
    HostTools noBwrap = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, noBwrap);
    assertEquals(ConfinementLevel.HARDENED, chosen.report().level(), chosen.report().toString());
    assertEquals(UNSHARE, chosen.report().launcher());
  }

  @Test
  void auto_where_only_a_network_namespace_works_settles_for_it() {
    // a launcher chain without the util-linux path (as on an architecture with no seccomp program here)
    HostTools noBwrap = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
    var chosen = ConfinementCheck.select(AUTO, ConfinementProbe.class.getName(), tempRoot, noBwrap,
        host -> LauncherChain.candidates(host).stream().filter(l -> !l.name().startsWith("unshare (")).toList());
    assertEquals(ConfinementLevel.NETWORK, chosen.report().level(), chosen.report().toString());
    assertEquals("unshare --net, a uid of its own from " + UIDS, chosen.report().launcher());
  }
}
