package lab.exactlyonce.sandbox.engine;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The thread one snippet runs on: a known stack size, its own budget, its own output streams, its own trace and
 * its own generator of random numbers. {@link Budget} and {@link OutputRouting} find them
 * through {@link Thread#currentThread()}.
 */
final class RunThread extends Thread {
  static final long STACK_BYTES = 4L * 1024 * 1024;

  private final RunBudget budget;
  private final RunOutput output;
  private final PrintStream out;
  private final PrintStream err;
  private final TraceBuffer trace;
  private final Random random = RunRandom.forRun();

  RunThread(Runnable body, RunBudget budget, RunOutput output) {
    super(null, body, "snippet-main", STACK_BYTES);
    setDaemon(true);
    this.budget = budget;
    this.output = output;
    this.trace = new TraceBuffer(budget.limits().maxTraceEvents(), budget.limits().maxTraceBytes());
    this.out = new PrintStream(output.stdout(), true, StandardCharsets.UTF_8);
    this.err = new PrintStream(output.stderr(), true, StandardCharsets.UTF_8);
  }

  RunBudget budget() {
    return budget;
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  /** Touched by this thread only while it runs; read by the caller after it ended. */
  TraceBuffer trace() {
    return trace;
  }

  /** What {@code Math.random()}, {@code ThreadLocalRandom} and {@code Collections.shuffle} draw from in this run. */
  Random random() {
    return random;
  }

  RunOutput output() {
    return output;
  }
}
