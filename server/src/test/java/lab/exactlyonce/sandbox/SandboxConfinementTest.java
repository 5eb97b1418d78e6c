package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementException;
import lab.exactlyonce.sandbox.confinement.HostTools;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sandbox's start against the confinement the settings insist on, with the fake worker. */
@Tag("sandbox")
class SandboxConfinementTest {
  static final String UIDS = SandboxSettings.Confinement.DEFAULT_WORKER_UIDS;
  static final HostTools NO_BWRAP = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));
  static final HostTools NEITHER = new HostTools(NO_BWRAP.shell(), NO_BWRAP.bwrap(), NO_BWRAP.setpriv(),
      Path.of("/nonexistent/unshare"));

  static SandboxSettings settings(SandboxSettings.Confinement confinement) {
    return SandboxPoolTest.settings(1).withConfinement(confinement);
  }

  @Test
  void a_sandbox_that_must_be_hardened_refuses_to_start_where_only_weaker_launchers_work() {
    var hardened = SandboxSettings.Confinement.parse("hardened", UIDS, "auto");
    try (Sandbox sandbox = new Sandbox(settings(hardened), NEITHER)) {
      ConfinementException e = assertThrows(ConfinementException.class, sandbox::start);
      assertTrue(e.getMessage().startsWith("--sandbox-confinement hardened: the best launcher here (plain child "
          + "process, seccomp loaded by the worker, not dumpable, a uid of its own from " + UIDS + ") reached network; "
          + "missing: own net namespace"), e.getMessage());
      assertEquals("unchecked", sandbox.confinementLevel());
    }
  }

  @Test
  void a_sandbox_that_must_be_hardened_starts_without_bubblewrap_and_answers() throws Exception {
    var hardened = SandboxSettings.Confinement.parse("hardened", UIDS, "auto");
    try (Sandbox sandbox = new Sandbox(settings(hardened), NO_BWRAP)) {
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
      assertEquals("hardened", sandbox.confinementLevel());
      assertTrue(sandbox.confinement().launcher().startsWith("unshare (all namespaces)"),
          sandbox.confinement().launcher());
      assertEquals("hi\n", sandbox.submit(RunRequest.run("a", "print hi")).get(20, TimeUnit.SECONDS).stdout());
    }
  }

  @Test
  void bubblewrap_off_uses_util_linux_even_where_bubblewrap_is_installed() throws Exception {
    var hardened = SandboxSettings.Confinement.parse("hardened", UIDS, "off");
    try (Sandbox sandbox = new Sandbox(settings(hardened))) {
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
      assertEquals("hardened", sandbox.confinementLevel());
      assertTrue(sandbox.confinement().launcher().startsWith("unshare (all namespaces)"),
          sandbox.confinement().launcher());
    }
  }

  @Test
  void none_means_plain_children_but_never_as_root_nor_with_the_servers_environment() throws Exception {
    try (Sandbox sandbox = new Sandbox(settings(SandboxSettings.Confinement.NONE))) {
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
      assertEquals("none", sandbox.confinementLevel());
      assertEquals("plain child process, a uid of its own from " + UIDS, sandbox.confinement().launcher());
      long pid = sandbox.workerPids().get(0);   // setpriv execs the JVM: the worker's pid is the JVM's
      List<String> status = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
      assertTrue(status.stream().anyMatch(l -> l.matches("Uid:\\s+(64\\d{3})\\s+\\1\\s+\\1\\s+\\1")),
          status.toString());
      assertTrue(status.stream().anyMatch(l -> l.equals("CapEff:\t0000000000000000")), status.toString());
      Set<String> env = new TreeSet<>();
      for (String entry : Files.readString(Path.of("/proc/" + pid + "/environ")).split("\0")) {
        if (!entry.isEmpty()) env.add(entry.substring(0, entry.indexOf('=')));
      }
      assertEquals(Set.of("LANG", "PATH", "PWD"), env);   // the shell sets PWD
    }
  }
}
