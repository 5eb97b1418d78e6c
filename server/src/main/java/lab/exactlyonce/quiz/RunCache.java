package lab.exactlyonce.quiz;

import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.SourceHash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the quiz's sandbox runs produced (a snippet variant's output, an exercise starter's verdicts), kept by the
 * SHA-256 of what ran: in memory and under {@code <data dir>/quiz-outputs/<sha>.out}, so each version of a text runs
 * once. A run that fails because of the service rather than the code (an exception such as a busy queue, an
 * internal error, a timeout on a loaded machine) is tried again after 1, 2, 3 and 4 s.
 */
final class RunCache {
  private static final Logger log = LoggerFactory.getLogger(RunCache.class);
  private static final int MAX_ATTEMPTS = 5;

  private final Path dir;
  private final Map<String, String> memory = new ConcurrentHashMap<>();

  RunCache(Path dir) {
    this.dir = dir;
  }

  /** How a run ended: its outcome and, when OK, the text to keep; otherwise a line saying what went wrong. */
  record Ran(Outcome status, String text) {}

  /**
   * The text kept for {@code ranText}, running it when nothing is kept yet; empty (and logged as {@code what})
   * when the run did not end OK.
   */
  CompletableFuture<Optional<String>> text(String what, String ranText, Supplier<CompletableFuture<Ran>> run) {
    String key = SourceHash.of(ranText);
    String cached = memory.computeIfAbsent(key, k -> read(k).orElse(null));
    if (cached != null) return CompletableFuture.completedFuture(Optional.of(cached));
    return attempt(what, run, 1).thenApply(ran -> {
      if (ran == null) return Optional.<String>empty();
      if (ran.status() != Outcome.OK) {
        log.warn("{} did not run OK ({}): {}", what, ran.status().id(), ran.text());
        return Optional.<String>empty();
      }
      memory.put(key, ran.text());
      write(key, ran.text());
      return Optional.of(ran.text());
    });
  }

  /** Null when every attempt failed with an exception. */
  private CompletableFuture<Ran> attempt(String what, Supplier<CompletableFuture<Ran>> run, int attempt) {
    CompletableFuture<Ran> started;
    try {
      started = run.get();
    } catch (RuntimeException e) {
      started = CompletableFuture.failedFuture(e);
    }
    return started.handle((ran, error) -> {
      boolean serviceFailure = error != null || ran.status() == Outcome.INTERNAL_ERROR || ran.status() == Outcome.TIMEOUT;
      if (!serviceFailure || attempt >= MAX_ATTEMPTS) {
        if (error != null) log.error("{} failed to run {} times", what, attempt, error);
        return CompletableFuture.completedFuture(error != null ? null : ran);
      }
      Executor later = CompletableFuture.delayedExecutor(attempt * 1000L, TimeUnit.MILLISECONDS);
      return CompletableFuture.supplyAsync(() -> null, later).thenCompose(x -> attempt(what, run, attempt + 1));
    }).thenCompose(f -> f);
  }

  private Optional<String> read(String key) {
    Path file = dir.resolve(key + ".out");
    try {
      return Files.isRegularFile(file) ? Optional.of(Files.readString(file, StandardCharsets.UTF_8)) : Optional.empty();
    } catch (IOException e) {
      log.warn("cannot read cached output {}", file, e);
      return Optional.empty();
    }
  }

  private void write(String key, String text) {
    try {
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, key, ".tmp");
      Files.writeString(tmp, text, StandardCharsets.UTF_8);
      Files.move(tmp, dir.resolve(key + ".out"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      log.warn("cannot cache output under {}", dir, e);
    }
  }

}
