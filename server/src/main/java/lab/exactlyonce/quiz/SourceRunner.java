package lab.exactlyonce.quiz;

import lab.exactlyonce.sandbox.engine.RunResult;

import java.util.concurrent.CompletableFuture;

/** Runs a lesson snippet's source and reports what it printed. The app wires the sandbox in here. */
@FunctionalInterface
public interface SourceRunner {
  CompletableFuture<RunResult> run(String source);
}
