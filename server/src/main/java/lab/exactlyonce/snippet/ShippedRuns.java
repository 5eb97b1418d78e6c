package lab.exactlyonce.snippet;

import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lesson's snippets as they ship, run as the server starts: every snippet {@code rounds} times on each of
 * {@code workers} workers at once, so that the workers have the demos compiled and the run path warm. A snippet whose
 * every one of those runs ended OK with the same output, errors, diagnostics and trace is deterministic, and a later
 * run of its unchanged source is answered with that result instead of queueing for a worker, the way a playground
 * answers a program it has already run: a whole class pressing Run on the demo within a few seconds costs the
 * workers nothing, and leaves them free for the runs somebody changed. Only sources from the catalog are ever kept,
 * never a learner's.
 */
public final class ShippedRuns {
  private final CodeRunner sandbox;
  private final SnippetCatalog snippets;
  private final Clock clock;
  /** By source text; only a catalog snippet's own source is ever a key. */
  private final Map<String, Kept> kept = new ConcurrentHashMap<>();

  /**
   * A shipped snippet's result, as every warm-up run of it produced it.
   *
   * @param runs how many runs at the server's start produced it, all alike
   * @param at   when the last of them ended
   */
  public record Kept(RunResult result, int runs, Instant at) {}

  public ShippedRuns(CodeRunner sandbox, SnippetCatalog snippets, Clock clock) {
    this.sandbox = sandbox;
    this.snippets = snippets;
    this.clock = clock;
  }

  /**
   * Runs the warm-up; completes when it is over, with what was kept. The runs wait in the queue as clients of their
   * own, one per worker, which learners' runs take turns with.
   */
  public CompletableFuture<Void> warmUp(int rounds, int workers) {
    Map<String, List<RunResult>> results = new ConcurrentHashMap<>();
    List<CompletableFuture<Boolean>> lanes = new ArrayList<>();
    for (int lane = 0; lane < workers; lane++) {
      String client = "server warm-up " + (lane + 1);
      CompletableFuture<Boolean> chain = CompletableFuture.completedFuture(true);
      for (int round = 0; round < rounds; round++) {
        for (Snippet snippet : snippets.all()) {
          chain = chain.thenCompose(x -> sandbox.submit(RunRequest.run(client, snippet.source())).thenApply(r -> {
            results.computeIfAbsent(snippet.source(), s -> Collections.synchronizedList(new ArrayList<>())).add(r);
            return true;
          }));
        }
      }
      lanes.add(chain.exceptionally(e -> false)); // a busy queue or a stopping server ends the warm-up, nothing else
    }
    return CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new)).thenRun(() -> {
      Instant at = clock.instant();
      results.forEach((source, ran) -> alike(ran, rounds * workers).ifPresent(r -> kept.put(source, new Kept(r, ran.size(), at))));
    });
  }

  /** What a run of {@code source} produces, when it is a shipped snippet's unchanged source found deterministic. */
  public Optional<Kept> of(String source) {
    return Optional.ofNullable(kept.get(source));
  }

  /**
   * The last result, when there are {@code expected} of them, all OK and alike but for their time; its timing (queue
   * and worker) is left out, as it belonged to that one run.
   */
  static Optional<RunResult> alike(List<RunResult> results, int expected) {
    List<RunResult> all;
    synchronized (results) {
      all = List.copyOf(results);
    }
    if (all.size() != expected || all.isEmpty()) return Optional.empty();
    RunResult first = all.get(0);
    for (RunResult r : all) {
      boolean same = r.status() == Outcome.OK && Objects.equals(r.stdout(), first.stdout())
          && Objects.equals(r.stderr(), first.stderr()) && r.diagnostics().equals(first.diagnostics())
          && r.trace().equals(first.trace());
      if (!same) return Optional.empty();
    }
    return Optional.of(all.get(all.size() - 1).withTiming(null));
  }
}
