package lab.exactlyonce.sandbox.engine;

/**
 * The budgets of one run, all in one value, sent to the worker with every request.
 *
 * @param cpuMillis time the run may spend computing: its thread's CPU time plus the garbage collections it causes,
 *     so that a host busy with other runs or the JIT does not turn a correct run into a timeout
 * @param wallMillis wall-clock time after which the run ends whatever it computed (at least {@code cpuMillis}; by
 *     default {@link #BUSY_HOST_FACTOR} times it). Compilation has its own limit, so a run ends within
 *     compileMillis + wallMillis plus a grace of a few hundred milliseconds
 * @param tickBudget steps (loop back-edges plus method entries) after which the run reads its CPU time whatever the
 *     clock says, again every as many steps; where this JVM cannot measure a thread's CPU time, the most steps a run
 *     may take. Steps are no limit of their own: a JIT-compiled loop takes a few hundred million a second, so any
 *     fixed count would stop programs that {@code java} finishes well within the CPU limit
 * @param maxLiveBytes data the run may keep live at once: what a full garbage collection would leave of what it
 *     allocated. Allocating is not limited, only keeping: a program may allocate many times the heap in garbage, as
 *     under {@code java}. The worker's heap ({@code -Xmx}) has to hold this plus the engine and its compile cache
 *     ({@code cacheBytes})
 * @param maxOutputBytes stdout plus stderr
 * @param maxSourceBytes source size
 * @param compileMillis time allowed for compilation (the first compilation in a fresh JVM gets at least 10 s)
 * @param maxTraceEvents trace events one run returns; the next one becomes a single {@code truncated} event
 * @param maxTraceBytes the trace's size as JSON; the event that would pass it becomes a single {@code truncated}
 *     event
 * @param maxDiagnostics compile errors or rejected APIs one answer lists; the rest are counted in one last
 *     diagnostic, "and N more problems"
 * @param cacheBytes class-file bytes (plus the diagnostics' text) the worker's compile cache may hold over all its
 *     entries, so that what earlier runs compiled never takes more than this from the heap a later run gets; a worker
 *     applies the value of the request it is serving
 */
public record SandboxLimits(long cpuMillis, long wallMillis, long tickBudget, long maxLiveBytes, int maxOutputBytes,
                            int maxSourceBytes, long compileMillis, int maxTraceEvents, int maxTraceBytes,
                            int maxDiagnostics, long cacheBytes) {
  public static final int DEFAULT_MAX_TRACE_EVENTS = 5_000;
  public static final int DEFAULT_MAX_TRACE_BYTES = 512 * 1024;
  public static final int DEFAULT_MAX_DIAGNOSTICS = 50;
  public static final long DEFAULT_CACHE_BYTES = 8L * 1024 * 1024;
  /**
   * Three quarters of the workers' default 256 MB heap: the rest holds the engine (about 5 MB once warm), the
   * compile cache and the garbage between two checks of the live data.
   */
  public static final long DEFAULT_MAX_LIVE_BYTES = 192L * 1024 * 1024;

  public SandboxLimits {
    positive("cpuMillis", cpuMillis);
    if (wallMillis < cpuMillis) {
      throw new IllegalArgumentException("sandbox limit wallMillis (" + wallMillis + ") must be at least cpuMillis ("
          + cpuMillis + ")");
    }
    positive("tickBudget", tickBudget);
    positive("maxLiveBytes", maxLiveBytes);
    positive("maxOutputBytes", maxOutputBytes);
    positive("maxSourceBytes", maxSourceBytes);
    positive("compileMillis", compileMillis);
    positive("maxTraceEvents", maxTraceEvents);
    positive("maxTraceBytes", maxTraceBytes);
    positive("maxDiagnostics", maxDiagnostics);
    positive("cacheBytes", cacheBytes);
  }

  /** The run budgets with the default clock limit and the default caps on answers and cache. */
  public SandboxLimits(long cpuMillis, long tickBudget, long maxLiveBytes, int maxOutputBytes, int maxSourceBytes,
                       long compileMillis) {
    this(cpuMillis, cpuMillis * BUSY_HOST_FACTOR, tickBudget, maxLiveBytes, maxOutputBytes, maxSourceBytes,
        compileMillis, DEFAULT_MAX_TRACE_EVENTS, DEFAULT_MAX_TRACE_BYTES, DEFAULT_MAX_DIAGNOSTICS, DEFAULT_CACHE_BYTES);
  }

  /**
   * How many times its CPU time a run may take on the clock by default: a learner's code cannot sleep or wait (the
   * allowlist refuses both), so only a busy host makes a run's clock time outrun its CPU time, and three times is a
   * host running about three times as many threads as it has cores.
   */
  public static final int BUSY_HOST_FACTOR = 3;

  /** These limits with another CPU time limit (and the clock limit at least as long). */
  public SandboxLimits withCpuMillis(long millis) {
    return new SandboxLimits(millis, Math.max(wallMillis, millis), tickBudget, maxLiveBytes, maxOutputBytes,
        maxSourceBytes, compileMillis, maxTraceEvents, maxTraceBytes, maxDiagnostics, cacheBytes);
  }

  /** These limits with another clock limit. */
  public SandboxLimits withWallMillis(long millis) {
    return new SandboxLimits(cpuMillis, millis, tickBudget, maxLiveBytes, maxOutputBytes, maxSourceBytes,
        compileMillis, maxTraceEvents, maxTraceBytes, maxDiagnostics, cacheBytes);
  }

  private static void positive(String name, long value) {
    if (value <= 0) throw new IllegalArgumentException("sandbox limit " + name + " must be positive, not " + value);
  }

  public static SandboxLimits defaults() {
    return new SandboxLimits(2_000, 50_000_000L, DEFAULT_MAX_LIVE_BYTES, 64 * 1024, 64 * 1024, 3_000);
  }

  /** These limits with other caps on what an answer carries. */
  public SandboxLimits withAnswerCaps(int traceEvents, int traceBytes, int diagnostics) {
    return new SandboxLimits(cpuMillis, wallMillis, tickBudget, maxLiveBytes, maxOutputBytes, maxSourceBytes,
        compileMillis, traceEvents, traceBytes, diagnostics, cacheBytes);
  }

  /** These limits with another compile cache budget. */
  public SandboxLimits withCacheBytes(long bytes) {
    return new SandboxLimits(cpuMillis, wallMillis, tickBudget, maxLiveBytes, maxOutputBytes, maxSourceBytes,
        compileMillis, maxTraceEvents, maxTraceBytes, maxDiagnostics, bytes);
  }
}
