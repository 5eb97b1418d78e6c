package lab.exactlyonce.sandbox;

import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.sandbox.engine.RunResult;

import java.util.function.Consumer;

/**
 * The sandbox as the app hosts it: the {@link CodeRunner} its features use, plus what the app itself needs to start
 * and stop it, to report its confinement and to export its figures. {@link Sandbox} is the one the app runs; a test
 * that checks a feature rather than the sandbox hands the app another ({@code App(Config, Function)}).
 */
public interface SandboxService extends CodeRunner, AutoCloseable {
  /** Starts the workers in the background (runs submitted before they are ready wait); idempotent. */
  SandboxService start();

  /** The confinement level's name ({@code hardened}, ...), or {@code unchecked} before the sandbox has started. */
  String confinementLevel();

  /** What the confinement self-check found: level, launcher, and below hardened what is missing and the next step. */
  ConfinementReport confinement();

  /**
   * Calls {@code listener} with every run's result (for metrics) before the run's future completes, so whoever reads
   * the metrics after an answer finds its run counted; it must be quick and must not throw.
   */
  void onFinished(Consumer<RunResult> listener);

  /** Runs waiting for a worker now. */
  int waitingRuns();

  /** Workers running a snippet now. */
  int busyWorkers();

  /** Workers configured. */
  int workers();

  /** Stops taking runs, answers the waiting ones, and ends every worker. */
  @Override
  void close();
}
