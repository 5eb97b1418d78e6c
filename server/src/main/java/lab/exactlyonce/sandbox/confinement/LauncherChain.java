package lab.exactlyonce.sandbox.confinement;

import java.util.ArrayList;
import java.util.List;

/**
 * The launchers to try on a host, strongest first. The weaker bubblewrap variants leave out what some hosts refuse:
 * in Docker (with a profile that allows namespaces) {@code /proc/sys} is read-only, so {@code --disable-userns}
 * fails, and mounting a fresh {@code /proc} needs {@code systempaths=unconfined}. Without a seccomp program for
 * this architecture the bubblewrap launchers run without one (and reach contained at most). Where bubblewrap is
 * missing (or turned off), util-linux's {@code unshare} and {@code setpriv} with a filter the worker loads into
 * itself reach hardened too.
 */
final class LauncherChain {
  private LauncherChain() {
  }

  static List<Launcher> candidates(LaunchHost host) {
    boolean seccomp = host.seccompFile().isPresent();
    String filter = seccomp ? "seccomp" : "no seccomp program for this architecture";
    ConfinementLevel bwrapTarget = seccomp ? ConfinementLevel.HARDENED : ConfinementLevel.CONTAINED;
    var chain = new ArrayList<Launcher>();
    if (host.bubblewrap()) {
      chain.add(new Launcher("bwrap (all namespaces, " + filter + ", fresh /proc)", bwrapTarget,
          Launcher.Kind.BWRAP, true, true, seccomp, host));
      chain.add(new Launcher("bwrap (all namespaces, " + filter + ", fresh /proc, without --disable-userns)",
          bwrapTarget, Launcher.Kind.BWRAP, false, true, seccomp, host));
      chain.add(new Launcher("bwrap (all namespaces, " + filter + ", no /proc, without --disable-userns)",
          bwrapTarget, Launcher.Kind.BWRAP, false, false, seccomp, host));
    }
    // what every Linux host has: util-linux for the namespaces and the uid, the filter loaded by the worker itself
    if (seccomp && host.jnaLibraryDir().isPresent()) {
      chain.add(new Launcher((host.root() ? "unshare (all namespaces)" : "unshare (all namespaces, user namespace)")
          + ", seccomp loaded by the worker, not dumpable", ConfinementLevel.HARDENED, Launcher.Kind.UNSHARE_ALL,
          false, true, true, host));
    }
    chain.add(new Launcher(host.root() ? "unshare --net" : "unshare --net --map-root-user", ConfinementLevel.NETWORK,
        Launcher.Kind.UNSHARE_NET, false, false, false, host));
    // where no namespace is allowed (Docker's default profile): still no network, no new privileges, the filter
    if (seccomp && host.jnaLibraryDir().isPresent()) {
      chain.add(new Launcher("plain child process, seccomp loaded by the worker, not dumpable",
          ConfinementLevel.NETWORK, Launcher.Kind.PLAIN, false, false, true, host));
    }
    chain.add(new Launcher("plain child process", ConfinementLevel.NONE, Launcher.Kind.PLAIN, false, false, false,
        host));
    return chain;
  }
}
