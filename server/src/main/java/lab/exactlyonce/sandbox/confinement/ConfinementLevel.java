package lab.exactlyonce.sandbox.confinement;

import java.util.Locale;

/** How strongly the operating system confines a worker process, weakest first. */
public enum ConfinementLevel {
  /** A plain child process (the bytecode allowlist is the only wall). */
  NONE,
  /**
   * No network at all: its own network namespace or, where the host allows no namespace (Docker's default profile),
   * every socket but a local one refused by the seccomp filter the worker loads itself.
   */
  NETWORK,
  /** Own mount, pid and network namespaces, a uid other than 0, no capabilities, no server data, a clean environment. */
  CONTAINED,
  /** Contained, plus no new privileges, a seccomp filter, and no nested user namespace. */
  HARDENED;

  /** The name used in flags, logs and metrics. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean atLeast(ConfinementLevel other) {
    return compareTo(other) >= 0;
  }
}
