package lab.exactlyonce.classroom;

import java.util.List;

/**
 * How strongly the sandbox confines students' code on this host, as the instructor's pages show it: the level, and
 * below hardened what is missing and the one step that adds it. Empty level while the sandbox has not started.
 */
public record SandboxNotice(String level, List<String> missing, String nextStep) {
  public static final String HARDENED = "hardened";

  public SandboxNotice {
    missing = List.copyOf(missing);
  }

  /** Before the sandbox's self-check has run (it runs with the first run where the app does not start it). */
  public static SandboxNotice notStarted() {
    return new SandboxNotice("", List.of(), "");
  }
}
