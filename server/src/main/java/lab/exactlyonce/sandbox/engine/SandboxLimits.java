package lab.exactlyonce.sandbox.engine;

/**
 * The budgets of one run, all in one value. (The sandbox engine owns and may extend this record.)
 *
 * @param wallMillis wall-clock time for the run (compilation has its own limit, so a run ends within
 *     compileMillis + wallMillis plus a grace of a few hundred milliseconds)
 * @param tickBudget loop back-edges plus method entries the learner's code may execute
 * @param maxAllocatedBytes bytes the run's thread may allocate
 * @param maxOutputBytes stdout plus stderr
 * @param maxSourceBytes source size
 * @param compileMillis time allowed for compilation (the first compilation in a fresh JVM gets at least 10 s)
 */
public record SandboxLimits(long wallMillis, long tickBudget, long maxAllocatedBytes, int maxOutputBytes,
                            int maxSourceBytes, long compileMillis) {
  public SandboxLimits {
    positive("wallMillis", wallMillis);
    positive("tickBudget", tickBudget);
    positive("maxAllocatedBytes", maxAllocatedBytes);
    positive("maxOutputBytes", maxOutputBytes);
    positive("maxSourceBytes", maxSourceBytes);
    positive("compileMillis", compileMillis);
  }

  private static void positive(String name, long value) {
    if (value <= 0) throw new IllegalArgumentException("sandbox limit " + name + " must be positive, not " + value);
  }

  public static SandboxLimits defaults() {
    return new SandboxLimits(2_000, 50_000_000L, 256L * 1024 * 1024, 64 * 1024, 64 * 1024, 3_000);
  }
}
