package lab.exactlyonce.sandbox.engine;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * What runs on the {@link RunThread}: load and initialise the entry class, call its entry method (the snippet's
 * {@code main}, or an exercise checker's {@code check}), describe a failure; and afterwards, on the runner's
 * thread, what it all came to as a {@link RunResult}.
 */
final class MainCall implements Runnable {
  private final ClassLoader loader;
  private final String mainClass;
  private final String method;
  private final Class<?> parameter;
  private final Object argument;
  private final RunBudget budget;
  private volatile boolean finished;
  private volatile Throwable failure;
  private volatile String failureText = "";
  private volatile String failureSummary = "";
  private volatile int failureLine;
  private volatile Throwable internalFailure;

  MainCall(ClassLoader loader, String mainClass, String method, Class<?> parameter, Object argument, RunBudget budget) {
    this.loader = loader;
    this.mainClass = mainClass;
    this.method = method;
    this.parameter = parameter;
    this.argument = argument;
    this.budget = budget;
  }

  @Override
  public void run() {
    budget.start();
    Method main;
    try {
      Class<?> type = Class.forName(mainClass, false, loader);
      main = type.getMethod(method, parameter);
      main.setAccessible(true);
    } catch (ReflectiveOperationException | LinkageError e) {
      internalFailure = e;
      return;
    }
    try {
      main.invoke(null, argument);
      finished = true;
    } catch (InvocationTargetException e) {
      failed(e.getCause());
    } catch (ExceptionInInitializerError e) {
      failed(e);
    } catch (IllegalAccessException | LinkageError e) {
      internalFailure = e;
    } catch (Throwable e) {
      failed(e);
    }
  }

  /** Still on the run thread, within the budget: the learner's getMessage() may run here. */
  private void failed(Throwable t) {
    failure = t;
    if (t instanceof BudgetExceeded || budget.exceeded() != null) return;
    try {
      failureLine = LearnerStackTrace.line(t);
      failureSummary = LearnerStackTrace.describe(t);
      failureText = LearnerStackTrace.format(t);
    } catch (Throwable describing) {
      failureSummary = t.getClass().getName();
      failureText = "Exception in thread \"main\" " + failureSummary + "\n";
    }
  }

  /**
   * What the run came to, once the run thread has ended or been given up on.
   *
   * @param stuckAt where the run thread was when its wall time ran out, or null
   * @throws IllegalStateException when the sandbox, not the learner's code, failed
   */
  RunResult result(RunOutput output, StackTraceElement[] stuckAt, long elapsedMillis, List<TraceEvent> trace) {
    String stdout = output.stdoutText();
    String stderr = output.stderrText();
    BudgetExceeded exceeded = budget.exceeded();
    if (internalFailure != null) throw new IllegalStateException("running the snippet failed", internalFailure);
    if (exceeded != null) {
      if (exceeded.outcome() == Outcome.INTERNAL_ERROR) throw new IllegalStateException(exceeded.getMessage(), exceeded);
      int line = LearnerStackTrace.line(exceeded.getStackTrace());
      if (line == 0 && stuckAt != null) line = LearnerStackTrace.line(stuckAt);
      return new RunResult(exceeded.outcome(), stdout, stderr, List.of(new Diagnostic(line, 0, exceeded.getMessage())),
          elapsedMillis, trace);
    }
    // Only the run thread looks into the learner's throwable: getStackTrace() and getCause() may be overridden.
    if (failure instanceof OutOfMemoryError) {
      return new RunResult(Outcome.MEMORY_LIMIT, stdout, stderr,
          List.of(new Diagnostic(failureLine, 0, budget.message(RunBudget.Kind.OUT_OF_MEMORY))), elapsedMillis, trace);
    }
    if (failure != null) {
      return new RunResult(Outcome.RUNTIME_ERROR, stdout, stderr + failureText,
          List.of(new Diagnostic(failureLine, 0, failureSummary)), elapsedMillis, trace);
    }
    if (!finished) throw new IllegalStateException("the run thread ended without an outcome");
    return new RunResult(Outcome.OK, stdout, stderr, List.of(), elapsedMillis, trace);
  }

  /** Everything severe the run threw or caught: what {@link WorkerDamage} judges. */
  List<Throwable> thrown() {
    List<Throwable> seen = new ArrayList<>(budget.caughtSevere());
    if (failure != null) seen.add(failure);
    if (internalFailure != null) seen.add(internalFailure);
    return seen;
  }
}
