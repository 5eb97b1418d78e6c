package lab.exactlyonce.sandbox.confinement;

import com.sun.jna.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Which way of starting the engine lab's JVM a host gets: the check JVM is started through each launcher as the
 * engines would be (any jar stands in for the engines', which the check does not load).
 */
class EngineConfinementTest {
  @TempDir
  Path tmp;

  @Test
  void where_namespaces_are_allowed_the_engines_get_their_own_network() throws Exception {
    assumeTrue(Files.isExecutable(HostTools.installed().unshare()) && Files.isExecutable(HostTools.find("ip")),
        "util-linux and iproute2 are on every host this runs on");
    var said = new ArrayList<String>();
    EngineConfinement confinement = EngineConfinement.prepare(root(), jar(), 65000, HostTools.installed(), said::add);
    assertTrue(confinement.description().startsWith("unshare (all namespaces"), confinement.description());
    assertTrue(confinement.isolated());
    assertEquals(List.of(), said);
  }

  /** Docker's default profile refuses {@code unshare}: a missing tool stands in for it. */
  @Test
  void without_namespaces_the_engines_still_start_and_the_log_says_their_ports_are_open() throws Exception {
    HostTools noUnshare = new HostTools(HostTools.find("sh"), HostTools.find("bwrap"), HostTools.find("setpriv"),
        tmp.resolve("no-unshare"));
    var said = new ArrayList<String>();
    EngineConfinement confinement = EngineConfinement.prepare(root(), jar(), 65000, noUnshare, said::add);
    String description = confinement.description();
    assertTrue(description.startsWith("plain child process (the host's network), seccomp loaded by the JVM, not"
        + " dumpable"), description);
    assertTrue(description.contains("(unshare (all namespaces"), "and why the stronger ones failed: " + description);
    assertFalse(confinement.isolated(), "its ports are open to local accounts, and it says so");
    assertEquals(2, said.size(), "one line per launcher that failed: " + said);
    assertTrue(said.get(0).startsWith("engine lab confinement: unshare (all namespaces"), said.get(0));
  }

  private Path root() throws Exception {
    // as under /tmp, where the app keeps it: the engine uid passes through to its own directory and class path
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
    return Files.createDirectories(tmp.resolve("engines"));
  }

  private static Path jar() throws Exception {
    return Path.of(Native.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
