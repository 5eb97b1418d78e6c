package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementException;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
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
  static final HostTools NO_BWRAP = HostTools.installed().withBwrap(Path.of("/nonexistent/bwrap"));

  static SandboxSettings settings(SandboxSettings.Confinement confinement) {
    return SandboxPoolTest.settings(1).withConfinement(confinement);
  }

  @Test
  void a_sandbox_that_must_be_hardened_refuses_to_start_where_only_weaker_launchers_work() {
    var hardened = new SandboxSettings.Confinement("hardened", ConfinementLevel.HARDENED, true, 64999);
    try (Sandbox sandbox = new Sandbox(settings(hardened), NO_BWRAP)) {
      ConfinementException e = assertThrows(ConfinementException.class, sandbox::start);
      assertTrue(e.getMessage().startsWith("--sandbox-confinement hardened: the best launcher here (unshare --net as "
          + "uid 64999) reached network; missing: own mnt namespace"), e.getMessage());
      assertTrue(e.getMessage().endsWith("bwrap (all namespaces, seccomp, fresh /proc) as uid 64999 failed: exited "
          + "with code 127: setpriv: failed to execute /nonexistent/bwrap: No such file or directory"), e.getMessage());
      assertEquals("unchecked", sandbox.confinementLevel());
    }
  }

  @Test
  void a_sandbox_that_must_have_a_network_namespace_starts_without_bubblewrap() throws Exception {
    var network = new SandboxSettings.Confinement("network", ConfinementLevel.NETWORK, true, 64999);
    try (Sandbox sandbox = new Sandbox(settings(network), NO_BWRAP)) {
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
      assertEquals("network", sandbox.confinementLevel());
      assertEquals("hi\n", sandbox.submit(RunRequest.run("a", "print hi")).get(20, TimeUnit.SECONDS).stdout());
    }
  }

  @Test
  void none_means_plain_children_but_never_as_root_nor_with_the_servers_environment() throws Exception {
    try (Sandbox sandbox = new Sandbox(settings(SandboxSettings.Confinement.NONE))) {
      assertTrue(sandbox.awaitReady(Duration.ofSeconds(30)));
      assertEquals("none", sandbox.confinementLevel());
      assertEquals("plain child process as uid 64999", sandbox.confinement().launcher());
      long pid = sandbox.workerPids().get(0);   // setpriv execs the JVM: the worker's pid is the JVM's
      List<String> status = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
      assertTrue(status.stream().anyMatch(l -> l.matches("Uid:\\s+64999\\s+64999\\s+64999\\s+64999")), status.toString());
      assertTrue(status.stream().anyMatch(l -> l.equals("CapEff:\t0000000000000000")), status.toString());
      Set<String> env = new TreeSet<>();
      for (String entry : Files.readString(Path.of("/proc/" + pid + "/environ")).split("\0")) {
        if (!entry.isEmpty()) env.add(entry.substring(0, entry.indexOf('=')));
      }
      assertEquals(Set.of("LANG", "PATH", "PWD"), env);   // the shell sets PWD
    }
  }
}
