package lab.exactlyonce.sandbox.confinement;

import java.util.ArrayList;
import java.util.List;

/**
 * The launchers to try on a host, strongest first. The weaker bubblewrap variants leave out what some hosts refuse:
 * in Docker (with a profile that allows namespaces) {@code /proc/sys} is read-only, so {@code --disable-userns}
 * fails, and mounting a fresh {@code /proc} needs {@code systempaths=unconfined}. Without a seccomp program for
 * this architecture the bubblewrap launchers run without one (and reach contained at most).
 */
final class LauncherChain {
  private LauncherChain() {
  }

  static List<Launcher> candidates(LaunchHost host) {
    boolean seccomp = host.seccompFile().isPresent();
    String filter = seccomp ? "seccomp" : "no seccomp program for this architecture";
    ConfinementLevel bwrapTarget = seccomp ? ConfinementLevel.HARDENED : ConfinementLevel.CONTAINED;
    var chain = new ArrayList<Launcher>();
    chain.add(new Launcher("bwrap (all namespaces, " + filter + ", fresh /proc)", bwrapTarget,
        Launcher.Kind.BWRAP, true, true, seccomp, host));
    chain.add(new Launcher("bwrap (all namespaces, " + filter + ", fresh /proc, without --disable-userns)",
        bwrapTarget, Launcher.Kind.BWRAP, false, true, seccomp, host));
    chain.add(new Launcher("bwrap (all namespaces, " + filter + ", no /proc, without --disable-userns)",
        bwrapTarget, Launcher.Kind.BWRAP, false, false, seccomp, host));
    chain.add(new Launcher(host.root() ? "unshare --net" : "unshare --net --map-root-user", ConfinementLevel.NETWORK,
        Launcher.Kind.UNSHARE_NET, false, false, false, host));
    chain.add(new Launcher("plain child process", ConfinementLevel.NONE, Launcher.Kind.PLAIN, false, false, false,
        host));
    return chain;
  }
}
