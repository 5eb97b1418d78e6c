package lab.exactlyonce;

import lab.exactlyonce.enginelab.EngineLabSettings;
import lab.exactlyonce.sandbox.SandboxService;
import lab.exactlyonce.sandbox.confinement.ConfinementLevel;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;

import java.util.List;

/**
 * The lines the app prints once it serves: what runs where, in plain words, and nothing else. The first keeps the
 * form {@code Exactly-Once Lab is serving http://localhost:PORT/}, which scripts and tests look for.
 */
final class StartupLines {
  private StartupLines() {}

  static List<String> of(int port, Config config, String secretNews, SandboxService sandbox, String engines) {
    return List.of("Exactly-Once Lab is serving http://localhost:" + port + "/",
        instructor(config, secretNews), sandbox(config, sandbox), engineLab(config.engineLab(), engines));
  }

  private static String instructor(Config config, String secretNews) {
    if (config.classroom().instructorSecret().isPresent()) {
      return "Instructor: sign in at /teach with the secret given by --instructor-secret";
    }
    if (!secretNews.isEmpty()) return secretNews;
    return "Instructor: sign in at /teach with the secret in "
        + config.dataDir().resolve("instructor-secret").toAbsolutePath();
  }

  private static String sandbox(Config config, SandboxService sandbox) {
    if (sandbox.confinementLevel().equals("unchecked")) {
      return "Sandbox: " + workers(config) + " start with the first run (confinement checked then)";
    }
    ConfinementReport report = sandbox.confinement();
    String line = "Sandbox: " + workers(config) + ", confinement " + report.level().id()
        + " (" + report.launcher() + "), warming up";
    if (report.level() == ConfinementLevel.HARDENED) return line;
    return line + "; missing for hardened: " + String.join(", ", report.missing())
        + (report.nextStep().isEmpty() ? "" : "; to add it: " + report.nextStep());
  }

  private static String workers(Config config) {
    int n = config.sandbox().workers();
    return n + (n == 1 ? " worker" : " workers");
  }

  private static String engineLab(EngineLabSettings settings, String engines) {
    if (settings.enabled()) {
      return "Engine lab: on, Kafka and Flink " + (engines.equals("warm") ? "warm" : "starting in the background")
          + " (--engine-lab off turns it off)";
    }
    if (!settings.offReason().isEmpty()) return "Engine lab: off, " + settings.offReason();
    return "Engine lab: off (--engine-lab off)";
  }
}
