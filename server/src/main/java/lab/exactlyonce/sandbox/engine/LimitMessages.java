package lab.exactlyonce.sandbox.engine;

/**
 * What a learner reads when a run is stopped: which limit ended it, with its figure, and what usually causes it.
 * Every message starts "stopped by the ... limit", so the limit is named before anything is guessed.
 */
final class LimitMessages {
  private LimitMessages() {}

  static String of(RunBudget.Kind kind, SandboxLimits limits) {
    return switch (kind) {
      case CPU_TIME -> "stopped by the CPU time limit: the program computed for " + limits.cpuMillis()
          + " ms, the most one run may; is there an endless loop or a very long computation?";
      case WALL_TIME -> "stopped by the clock limit: " + limits.wallMillis() + " ms passed before the program finished"
          + " (it may compute for " + limits.cpuMillis() + " ms); the server is too busy to finish this run now;"
          + " try again in a moment";
      case STEPS -> "stopped by the step limit: " + limits.tickBudget() + " steps (loop iterations and calls), the"
          + " limit where this server cannot measure CPU time; is there an endless loop or endless recursion?";
      case MEMORY -> "stopped by the memory limit: the program kept more than " + size(limits.maxLiveBytes())
          + " of data live at once";
      case OUT_OF_MEMORY -> "stopped by the memory limit: the program ran out of memory (it may keep "
          + size(limits.maxLiveBytes()) + " of data live at once)";
      case OUTPUT -> "stopped by the output limit: the program printed more than " + limits.maxOutputBytes()
          + " bytes";
    };
  }

  /** Whole megabytes where the limit is some ("64 MB"), else bytes. */
  static String size(long bytes) {
    long mb = 1024 * 1024;
    return bytes % mb == 0 ? bytes / mb + " MB" : bytes + " bytes";
  }
}
