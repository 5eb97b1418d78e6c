package lab.exactlyonce.sandbox.engine;

import com.sun.management.ThreadMXBean;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The spendable budgets of one run, owned by its {@link RunThread}. Only that thread touches the counters; the
 * waiting side may only {@link #stop} it. Once a budget is exceeded the error is sticky: every later check throws
 * the same error again, so a learner's {@code catch (Throwable t)} cannot outlive it.
 */
final class RunBudget {
  /**
   * CPU time, wall clock and allocation are sampled every so many ticks: at first every 16, doubling up to 1024 while the
   * run allocates little, shrinking (down to every tick) when the allocation rate would reach the next check of the
   * live data before the next sample, or accelerates (a string that doubles in every iteration, say).
   */
  private static final long FIRST_INTERVAL = 16;
  private static final long MAX_INTERVAL = 1024;
  private static final long ACCELERATION_FLOOR = 64 * 1024;
  private static final int MAX_SEVERE = 8;
  private static final ThreadMXBean THREADS =
      (ThreadMXBean) ManagementFactory.getThreadMXBean();
  /** Whether this JVM measures threads' CPU time; where it does not, the step budget stands in for the CPU limit. */
  private static final boolean CPU_CLOCK = THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()
      && THREADS.getCurrentThreadCpuTime() >= 0;
  /**
   * The least a run allocates between two full collections that measure its live data (as a share of the limit): a
   * run keeping nearly its limit live does not pay a full collection for every few bytes, and overshoots its limit by
   * at most this much (the heap has room for it beyond the limit).
   */
  private static final long LIVE_CHECK_SHARE = 8;

  /** The ways a run goes over budget, each with its message. */
  enum Kind { STEPS, CPU_TIME, WALL_TIME, MEMORY, OUT_OF_MEMORY, OUTPUT }

  private final SandboxLimits limits;
  private final long deadlineNanos;
  private final long cpuBudgetNanos;
  private long cpuBase;
  /**
   * The first moment the run could have computed its CPU budget: reading a thread's CPU time is a system call,
   * and one thread cannot compute faster than the clock runs, so it is read only from then on.
   */
  private long cpuCheckAt;
  /** The kind of a sticky error that had to be made without the learner's frames; null once it has them. */
  private Kind untraced;
  private final String[] messages = new String[Kind.values().length];
  /** Made up front, without a stack trace: thrown when there is no stack left to make one with a trace. */
  private final BudgetExceeded[] withoutTrace = new BudgetExceeded[Kind.values().length];
  private long ticks;
  /** The step count at which the CPU time is read whatever the clock says (see {@link SandboxLimits#tickBudget}). */
  private long stepMark;
  private long nextCheck;
  private long lastSampleTicks;
  private long lastSampleAllocated;
  private long lastPerTick;
  private long allocationBase = -1;
  /** Allocated bytes at the last sample plus array bytes charged since then. */
  private long allocatedEstimate;
  /**
   * The allocated bytes at which the run's live data is measured next. A run cannot keep live more than it
   * allocated, so the first measurement waits until it allocated its limit; each later one until it allocated what
   * it had left of its limit at the last.
   */
  private long liveCheckAt;
  /** The heap the engine holds, taken as the run is made: what the heap holds beyond it is the run's. */
  private final long engineBytes;
  private volatile BudgetExceeded exceeded;
  /** Why the waiting side stopped the run (its CPU time or its clock time ran out); null while it has not. */
  private volatile Kind stopRequested;
  /** The first JVM errors the learner's handlers caught (stack overflow, out of memory, failed linkage). */
  private final List<Throwable> severe = new CopyOnWriteArrayList<>();

  /** The budgets of {@code limits}; the run ends on the clock at {@code deadlineNanos} whatever it computed. */
  RunBudget(SandboxLimits limits, long deadlineNanos) {
    this.limits = limits;
    this.deadlineNanos = deadlineNanos;
    this.cpuBudgetNanos = TimeUnit.MILLISECONDS.toNanos(limits.cpuMillis());
    this.cpuCheckAt = deadlineNanos;
    this.stepMark = limits.tickBudget() + 1;
    this.nextCheck = Math.min(FIRST_INTERVAL, stepMark);
    this.liveCheckAt = limits.maxLiveBytes();
    this.engineBytes = LiveHeap.engineBytes();
    for (Kind kind : Kind.values()) {
      messages[kind.ordinal()] = LimitMessages.of(kind, limits);
      withoutTrace[kind.ordinal()] = new BudgetExceeded(outcome(kind), messages[kind.ordinal()], false);
    }
  }

  private static Outcome outcome(Kind kind) {
    switch (kind) {
      case MEMORY:
      case OUT_OF_MEMORY:
        return Outcome.MEMORY_LIMIT;
      case OUTPUT:
        return Outcome.OUTPUT_LIMIT;
      default:
        return Outcome.TIMEOUT;
    }
  }

  SandboxLimits limits() {
    return limits;
  }

  /** The message of a stop of this kind under these limits. */
  String message(Kind kind) {
    return messages[kind.ordinal()];
  }

  /** Called by the run thread before the learner's code starts. */
  void start() {
    allocationBase = THREADS.getCurrentThreadAllocatedBytes();
    cpuBase = spentNanos(THREADS.getCurrentThreadCpuTime());
    cpuCheckAt = System.nanoTime() + cpuBudgetNanos;
  }

  void tick() {
    BudgetExceeded e = exceeded;
    if (e != null) throw sticky(e);
    Kind stop = stopRequested;
    if (stop != null) throw exceed(stop);
    if (++ticks >= nextCheck) check();
  }

  private void check() {
    long now = System.nanoTime();
    if (ticks >= stepMark) {
      // Steps only ask for the CPU time to be read: where it cannot be, they are the limit.
      if (!CPU_CLOCK) throw exceed(Kind.STEPS);
      cpuCheckAt = now;
      stepMark = saturatedAdd(stepMark, limits.tickBudget());
    }
    if (now - cpuCheckAt >= 0) {
      long cpuLeft = cpuBudgetNanos - (spentNanos(THREADS.getCurrentThreadCpuTime()) - cpuBase);
      if (cpuLeft < 0) throw exceed(Kind.CPU_TIME);
      cpuCheckAt = now + cpuLeft;
    }
    if (now - deadlineNanos > 0) throw exceed(Kind.WALL_TIME);
    long allocated = allocatedSinceStart();
    allocatedEstimate = allocated;
    if (allocated > liveCheckAt) checkLive(allocated, 0);
    long interval = Math.max(1, ticks - lastSampleTicks);
    long next = Math.min(MAX_INTERVAL, interval * 2);
    long delta = allocated - lastSampleAllocated;
    if (delta > 0) {
      long perTick = delta / interval + 1;
      next = Math.min(next, Math.max(1, (liveCheckAt - allocated) / (4 * perTick)));
      if (perTick > 2 * lastPerTick && delta > ACCELERATION_FLOOR) next = 1;
      lastPerTick = perTick;
    } else {
      lastPerTick = 0;
    }
    lastSampleTicks = ticks;
    lastSampleAllocated = allocated;
    nextCheck = Math.min(ticks + next, stepMark);
  }

  /**
   * Whether the run's live data, with {@code pending} bytes it is about to allocate, is over its limit: first from
   * the heap in use, which costs nothing, and only if that is over the limit from a full collection. Sets when to
   * look next: once the run has allocated what it has left of its limit.
   */
  private void checkLive(long allocated, long pending) {
    long limit = limits.maxLiveBytes();
    if (pending > limit) throw exceed(Kind.MEMORY); // no collection can make room for it
    long live = LiveHeap.usedBytes() - engineBytes;
    // Before a verdict that ends the run, two collections: what the first left for reference processing (cleared
    // soft and weak references, their queues) is gone after the second, and only the run's own data can still be over.
    for (int collection = 0; collection < 2 && saturatedAdd(live, pending) > limit; collection++) {
      long measured = LiveHeap.liveBytes();
      if (measured == LiveHeap.UNKNOWN) {
        // The JVM skipped the collections: the heap in use holds garbage, no ground for a verdict. Look again soon.
        liveCheckAt = saturatedAdd(allocated, limit / LIVE_CHECK_SHARE);
        return;
      }
      live = measured - engineBytes;
    }
    if (saturatedAdd(live, pending) > limit) throw exceed(Kind.MEMORY);
    liveCheckAt = saturatedAdd(allocated, Math.max(limit - Math.max(0, live), limit / LIVE_CHECK_SHARE));
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  private long allocatedSinceStart() {
    return allocationBase < 0 ? 0 : THREADS.getCurrentThreadAllocatedBytes() - allocationBase;
  }

  /** Refuses an array allocation that would take the run's live data over its limit, before it happens. */
  void chargeArray(long bytes) {
    BudgetExceeded e = exceeded;
    if (e != null) throw sticky(e);
    if (bytes < 0) return; // a negative length: let the JVM throw NegativeArraySizeException
    allocatedEstimate = saturatedAdd(allocatedEstimate, bytes);
    if (allocatedEstimate > liveCheckAt) {
      long allocated = allocatedSinceStart();
      allocatedEstimate = saturatedAdd(allocated, bytes);
      if (allocatedEstimate > liveCheckAt) checkLive(allocated, bytes);
    }
  }

  /** At every exception handler: a spent budget (or our own error) must not be swallowed. */
  void caught(Throwable t) {
    if ((t instanceof VirtualMachineError || t instanceof LinkageError) && severe.size() < MAX_SEVERE) severe.add(t);
    BudgetExceeded e = exceeded;
    if (e != null) throw sticky(e);
    Kind stop = stopRequested;
    if (stop != null) throw exceed(stop);
    if (t instanceof BudgetExceeded) throw (BudgetExceeded) t;
    if (t instanceof OutOfMemoryError) throw exceed(Kind.OUT_OF_MEMORY);
  }

  void outputExceeded() {
    BudgetExceeded e = exceeded;
    if (e != null) throw sticky(e);
    throw exceed(Kind.OUTPUT);
  }

  /**
   * On the waiting side: waits for {@code runner} to end by itself, or until it has computed its CPU time or reached
   * the clock deadline, each plus {@code graceMillis} (the run's own checks stop it at the limit; past the grace it
   * is stuck in a library call). Answers which of the two was spent, or null when the run ended. One thread cannot
   * compute faster than the clock runs, so each wait lasts at least the CPU time the run has left.
   */
  Kind awaitEnd(Thread runner, long graceMillis) throws InterruptedException {
    long grace = TimeUnit.MILLISECONDS.toNanos(graceMillis);
    long base = spentNanos(0);   // the run's own base is the run thread's; this one is called as it starts
    while (true) {
      long cpuLeft = cpuBudgetNanos + grace - (spentNanos(THREADS.getThreadCpuTime(runner.getId())) - base);
      long wallLeft = deadlineNanos + grace - System.nanoTime();
      if (cpuLeft <= 0) return Kind.CPU_TIME;
      if (wallLeft <= 0) return Kind.WALL_TIME;
      runner.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(cpuLeft, wallLeft))));
      if (!runner.isAlive()) return null;
    }
  }

  /**
   * A thread's CPU time plus the CPU time the JVM's garbage collection has used so far ({@link CollectorTime}): a
   * worker serves one run at a time, so every collection is the run's doing, and a run that keeps the collector busy
   * is charged for it. What a task is charged is the difference from a base.
   */
  static long spentNanos(long threadCpuNanos) {
    return Math.max(0, threadCpuNanos) + CollectorTime.nanos();
  }

  /** From the waiting thread: the run is over its CPU or clock time; its next step throws. */
  void stop(Kind why) {
    stopRequested = why;
  }

  /** The JVM errors the learner's own handlers caught, so the worker can tell whether they damaged it. */
  List<Throwable> caughtSevere() {
    return List.copyOf(severe);
  }

  /** The error this run was stopped with, or null. */
  BudgetExceeded exceeded() {
    BudgetExceeded e = exceeded;
    Kind stop = stopRequested;
    if (e == null && stop != null) return withoutTrace[stop.ordinal()];
    return e;
  }

  /**
   * The run's sticky error, made once, with the learner's frames when there is stack left for them (deep in a
   * recursion there may not be; making a new error at every frame while unwinding would take seconds).
   */
  private BudgetExceeded exceed(Kind kind) {
    BudgetExceeded e = exceeded;
    if (e != null) return e;
    try {
      e = new BudgetExceeded(outcome(kind), messages[kind.ordinal()], true);
    } catch (StackOverflowError noStackLeft) {
      e = withoutTrace[kind.ordinal()];
      untraced = kind;
    }
    exceeded = e;
    return e;
  }

  /**
   * The sticky error to throw again. One made without the learner's frames (no stack was left) is made again,
   * once, as soon as the unwinding run has stack to spare, so the learner still learns the line it was stopped at.
   */
  private BudgetExceeded sticky(BudgetExceeded e) {
    Kind kind = untraced;
    if (kind == null) return e;
    try {
      BudgetExceeded traced = new BudgetExceeded(outcome(kind), messages[kind.ordinal()], true);
      untraced = null;
      exceeded = traced;
      return traced;
    } catch (StackOverflowError stillNoStackLeft) {
      return e;
    }
  }
}
