package lab.exactlyonce.sandbox.engine;

import java.lang.management.ManagementFactory;

/**
 * The spendable budgets of one run, owned by its {@link RunThread}. Only that thread touches the counters; the
 * waiting side may only {@link #stop} it. Once a budget is exceeded the error is sticky: every later check throws
 * the same error again, so a learner's {@code catch (Throwable t)} cannot outlive it.
 */
final class RunBudget {
  /** Wall clock and allocation are sampled once every this many ticks (a power of two, minus one as a mask). */
  private static final long SAMPLE_MASK = 1023;
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private final SandboxLimits limits;
  private final long deadlineNanos;
  private long ticks;
  private long allocationBase = -1;
  /** Allocated bytes at the last sample plus array bytes charged since then. */
  private long allocatedEstimate;
  private volatile BudgetExceeded exceeded;
  /** Set by {@link #stop} from the waiting thread; the run thread turns it into its own error (with its frames). */
  private static final BudgetExceeded STOP = new BudgetExceeded(Outcome.TIMEOUT, "stop requested");

  RunBudget(SandboxLimits limits, long deadlineNanos) {
    this.limits = limits;
    this.deadlineNanos = deadlineNanos;
  }

  /** Called by the run thread before the learner's code starts. */
  void start() {
    allocationBase = THREADS.getCurrentThreadAllocatedBytes();
  }

  void tick() {
    BudgetExceeded e = exceeded;
    if (e != null) throw e == STOP ? wallTimeout() : e;
    if (++ticks > limits.tickBudget()) {
      throw exceed(Outcome.TIMEOUT, "stopped after " + limits.tickBudget()
          + " steps (loop iterations and calls): is there an endless loop or endless recursion?");
    }
    if ((ticks & SAMPLE_MASK) == 0) sample();
  }

  private void sample() {
    if (System.nanoTime() - deadlineNanos > 0) {
      throw wallTimeout();
    }
    allocatedEstimate = allocatedSinceStart();
    if (allocatedEstimate > limits.maxAllocatedBytes()) throw memoryExceeded();
  }

  private long allocatedSinceStart() {
    return allocationBase < 0 ? 0 : THREADS.getCurrentThreadAllocatedBytes() - allocationBase;
  }

  /** Refuses an array allocation that would take the run over its memory budget, before it happens. */
  void chargeArray(long bytes) {
    BudgetExceeded e = exceeded;
    if (e != null) throw e == STOP ? wallTimeout() : e;
    if (bytes < 0) return; // a negative length: let the JVM throw NegativeArraySizeException
    allocatedEstimate += bytes;
    if (allocatedEstimate > limits.maxAllocatedBytes()) {
      allocatedEstimate = allocatedSinceStart() + bytes;
      if (allocatedEstimate > limits.maxAllocatedBytes()) throw memoryExceeded();
    }
  }

  private BudgetExceeded memoryExceeded() {
    return exceed(Outcome.MEMORY_LIMIT, "stopped: the program allocated more than "
        + limits.maxAllocatedBytes() / (1024 * 1024) + " MB");
  }

  /** At every exception handler: a spent budget (or our own error) must not be swallowed. */
  void caught(Throwable t) {
    BudgetExceeded e = exceeded;
    if (e != null) throw e == STOP ? wallTimeout() : e;
    if (t instanceof BudgetExceeded) throw (BudgetExceeded) t;
    if (t instanceof OutOfMemoryError) {
      throw exceed(Outcome.MEMORY_LIMIT, "stopped: the program ran out of memory");
    }
  }

  void outputExceeded() {
    BudgetExceeded e = exceeded;
    if (e != null) throw e == STOP ? wallTimeout() : e;
    throw exceed(Outcome.OUTPUT_LIMIT, "stopped: the program printed more than " + limits.maxOutputBytes() + " bytes");
  }

  /** From the waiting thread: the run is over its wall time; its next step throws. */
  void stop() {
    if (exceeded == null) exceeded = STOP;
  }

  /** The error this run was stopped with, or null. */
  BudgetExceeded exceeded() {
    BudgetExceeded e = exceeded;
    return e == STOP ? wallTimeExceeded() : e;
  }

  private BudgetExceeded wallTimeout() {
    BudgetExceeded e = exceeded;
    if (e == null || e == STOP) {
      e = wallTimeExceeded();
      exceeded = e;
    }
    return e;
  }

  private BudgetExceeded wallTimeExceeded() {
    return new BudgetExceeded(Outcome.TIMEOUT, "stopped after " + limits.wallMillis()
        + " ms: is there an endless loop or a very long computation?");
  }

  private BudgetExceeded exceed(Outcome outcome, String message) {
    BudgetExceeded e = exceeded;
    if (e == STOP) {
      e = wallTimeExceeded();
      exceeded = e;
    } else if (e == null) {
      e = new BudgetExceeded(outcome, message);
      exceeded = e;
    }
    return e;
  }
}
