package lab.exactlyonce.sandbox.engine;

/**
 * The budgets of one run, all in one value. (The sandbox engine owns and may extend this record.)
 *
 * @param wallMillis wall-clock time for compile plus run
 * @param tickBudget loop back-edges plus method entries the learner's code may execute
 * @param maxAllocatedBytes bytes the run's thread may allocate
 * @param maxOutputBytes stdout plus stderr
 * @param maxSourceBytes source size
 * @param compileMillis time allowed for compilation
 */
public record SandboxLimits(long wallMillis, long tickBudget, long maxAllocatedBytes, int maxOutputBytes,
                            int maxSourceBytes, long compileMillis) {
  public static SandboxLimits defaults() {
    return new SandboxLimits(2_000, 50_000_000L, 256L * 1024 * 1024, 64 * 1024, 64 * 1024, 1_000);
  }
}
