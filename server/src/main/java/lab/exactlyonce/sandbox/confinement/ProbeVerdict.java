package lab.exactlyonce.sandbox.confinement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one probe showed, as checks per level. A launcher reaches the highest level whose checks (and those of
 * every level below) all passed.
 */
record ProbeVerdict(List<Check> checks) {
  ProbeVerdict {
    checks = List.copyOf(checks);
  }

  /** One thing a level needs, whether the probe showed it, and what it saw. */
  record Check(ConfinementLevel level, String name, boolean passed, String seen) {
    @Override
    public String toString() {
      return name + " (" + seen + ")";
    }
  }

  /**
   * What the probe reported and what the server saw from outside.
   *
   * @param status {@code Uid}, {@code CapEff}, {@code NoNewPrivs}, {@code Seccomp} of the probe JVM
   * @param namespaces the probe's {@code /proc/self/ns/*} links by name
   * @param env the probe's environment variable names
   * @param attempts what it tried ({@code connect}, {@code read <path>}, ...) to whether it was done and what it saw
   * @param connected whether the server's loopback socket accepted a connection
   * @param killed whether the marked outside process died
   */
  record Observed(Map<String, String> status, Map<String, String> namespaces, Set<String> env,
                  Map<String, ConfinementProbe.Attempt> attempts, boolean connected, boolean killed) {}

  static ProbeVerdict of(Observed seen, Map<String, String> serverNamespaces) {
    var checks = new ArrayList<Check>();
    // No network: a network namespace of its own, or (Docker's default profile allows no namespace) every socket
    // but a local one refused by the seccomp filter the worker loaded itself.
    Check ownNet = differs(ConfinementLevel.CONTAINED, "net", seen, serverNamespaces);
    var inet = seen.attempts().get("inet-socket");
    boolean socketsRefused = inet != null && !inet.done();
    checks.add(new Check(ConfinementLevel.NETWORK, "no network", ownNet.passed() || socketsRefused,
        ownNet.passed() ? "own net namespace" : "the server's net namespace; internet socket: "
            + (inet == null ? "not tried" : inet.detail())));
    checks.add(new Check(ConfinementLevel.NETWORK, "server's loopback port unreachable", !seen.connected(),
        detail(seen, "connect")));
    checks.add(ownNet);
    checks.add(differs(ConfinementLevel.CONTAINED, "mnt", seen, serverNamespaces));
    checks.add(differs(ConfinementLevel.CONTAINED, "pid", seen, serverNamespaces));
    String uid = seen.status().get("Uid");
    checks.add(new Check(ConfinementLevel.CONTAINED, "uid not 0", uid != null && !uid.equals("0"), "Uid " + uid));
    String caps = seen.status().get("CapEff");
    checks.add(new Check(ConfinementLevel.CONTAINED, "CapEff 0", caps != null && caps.matches("0+"), "CapEff " + caps));
    for (var attempt : seen.attempts().values()) {
      if (attempt.what().startsWith("read ")) {
        checks.add(new Check(ConfinementLevel.CONTAINED, "server-only file unreadable", !attempt.done(),
            attempt.detail()));
      } else if (attempt.what().startsWith("write ")) {
        checks.add(new Check(ConfinementLevel.CONTAINED, "JDK read-only", !attempt.done(), attempt.detail()));
      }
    }
    checks.add(new Check(ConfinementLevel.CONTAINED, "outside process not signalled", !seen.killed(),
        detail(seen, seen.attempts().keySet().stream().filter(k -> k.startsWith("kill ")).findFirst().orElse("kill"))));
    var extra = new TreeSet<>(seen.env());
    extra.removeAll(Launcher.ALLOWED_ENV);
    checks.add(new Check(ConfinementLevel.CONTAINED, "environment cleared", extra.isEmpty(),
        extra.isEmpty() ? "only " + seen.env() : "also " + extra));
    checks.add(new Check(ConfinementLevel.HARDENED, "NoNewPrivs 1", "1".equals(seen.status().get("NoNewPrivs")),
        "NoNewPrivs " + seen.status().get("NoNewPrivs")));
    checks.add(new Check(ConfinementLevel.HARDENED, "Seccomp 2", "2".equals(seen.status().get("Seccomp")),
        "Seccomp " + seen.status().get("Seccomp")));
    var userns = seen.attempts().get("user-namespace");
    checks.add(new Check(ConfinementLevel.HARDENED, "nested user namespace refused",
        userns != null && !userns.done() && userns.detail().startsWith("refused"),
        userns == null ? "not tried" : userns.detail()));
    checks.add(new Check(ConfinementLevel.HARDENED, "internet socket refused", socketsRefused,
        inet == null ? "not tried" : inet.detail()));
    return new ProbeVerdict(checks);
  }

  /** The highest level all of whose checks, and those below it, passed. */
  ConfinementLevel level() {
    ConfinementLevel reached = ConfinementLevel.NONE;
    for (ConfinementLevel level : List.of(ConfinementLevel.NETWORK, ConfinementLevel.CONTAINED, ConfinementLevel.HARDENED)) {
      if (!missingFor(level).isEmpty()) break;
      reached = level;
    }
    return reached;
  }

  /** The failed checks that keep this launcher below {@code level}. */
  List<Check> missingFor(ConfinementLevel level) {
    return checks.stream().filter(c -> !c.passed() && level.atLeast(c.level())).toList();
  }

  private static Check differs(ConfinementLevel level, String ns, Observed seen, Map<String, String> server) {
    String theirs = seen.namespaces().get(ns);
    boolean own = theirs != null && !theirs.equals(server.get(ns));
    return new Check(level, "own " + ns + " namespace", own, theirs == null ? "unreadable" : theirs);
  }

  private static String detail(Observed seen, String attempt) {
    var a = seen.attempts().get(attempt);
    return a == null ? "not tried" : a.detail();
  }
}
