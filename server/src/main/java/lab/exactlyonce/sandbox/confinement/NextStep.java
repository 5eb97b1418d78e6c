package lab.exactlyonce.sandbox.confinement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The one step that brings workers on this host up to hardened, in words an instructor can act on: which it is
 * depends on where the app runs (a container, a bare Linux host with or without bubblewrap, as root or not, another
 * operating system), as {@code docs/sandbox.md} explains for each.
 */
final class NextStep {
  private NextStep() {
  }

  /** Where the app runs, as far as the step depends on it. */
  record Host(String osName, boolean container, boolean bubblewrapInstalled, boolean bubblewrapAllowed,
              boolean root) {
    static Host of(LaunchHost launch) {
      return new Host(System.getProperty("os.name", ""), inContainer(), Files.isExecutable(launch.tools().bwrap()),
          launch.bubblewrap(), launch.root());
    }
  }

  static String toHardened(ConfinementLevel level, boolean probed, Host host) {
    if (level == ConfinementLevel.HARDENED) return "";
    if (!probed) return "start the app without --sandbox-confinement none";
    if (!host.osName().toLowerCase(Locale.ROOT).startsWith("linux")) {
      return host.osName() + " has no Linux namespaces: host the class from the Docker image (docs/sandbox.md, "
          + "\"Docker\")";
    }
    if (!host.bubblewrapAllowed()) return "start the app without --sandbox-bubblewrap off";
    if (!host.bubblewrapInstalled()) {
      return host.root() ? "install bubblewrap (Debian: apt-get install bubblewrap)"
          : "install bubblewrap (Debian: apt-get install bubblewrap), or start the app as root";
    }
    // bubblewrap is there but could not make its namespaces: the container's profile, or the kernel's settings
    if (host.container()) {
      return "run the container with --security-opt seccomp=docs/docker/seccomp-sandbox.json (docs/sandbox.md, "
          + "\"Docker\")";
    }
    return host.root() ? "see why bubblewrap failed in the start-up log (docs/sandbox.md, \"Confinement\")"
        : "allow unprivileged user namespaces (docs/sandbox.md, \"Unprivileged\"), or start the app as root";
  }

  /** Docker and most container runtimes leave a mark a process can read. */
  static boolean inContainer() {
    if (Files.exists(Path.of("/.dockerenv")) || Files.exists(Path.of("/run/.containerenv"))) return true;
    try {
      String cgroups = Files.readString(Path.of("/proc/1/cgroup"));
      return cgroups.contains("docker") || cgroups.contains("kubepods") || cgroups.contains("containerd");
    } catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }
}
