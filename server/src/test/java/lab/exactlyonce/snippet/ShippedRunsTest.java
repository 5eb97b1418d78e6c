package lab.exactlyonce.snippet;

import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.RunTiming;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which of the shipped snippets' start-up runs answer later runs of their unchanged sources, and which do not. */
class ShippedRunsTest {
  private static final SnippetCatalog SNIPPETS = SnippetCatalog.load(Path.of("snippets"));
  private static final Instant START = Instant.parse("2026-12-03T08:00:00Z");
  private final Snippet sink = SNIPPETS.find("sink-demo").orElseThrow();
  private final Snippet txn = SNIPPETS.find("txn-dedupe-demo").orElseThrow();

  /** Answers each run with {@code answer}, counting the runs. */
  private static class FakeRunner implements CodeRunner {
    final AtomicInteger runs = new AtomicInteger();
    final Function<RunRequest, RunResult> answer;

    FakeRunner(Function<RunRequest, RunResult> answer) {
      this.answer = answer;
    }

    @Override
    public CompletableFuture<RunResult> submit(RunRequest request) {
      runs.incrementAndGet();
      return CompletableFuture.supplyAsync(() -> answer.apply(request));
    }

    @Override
    public SandboxLimits limits() {
      return SandboxLimits.defaults();
    }
  }

  private static RunResult ok(String stdout) {
    return new RunResult(Outcome.OK, stdout, "", List.of(), 7).withTiming(new RunTiming(1, 5, 6));
  }

  private ShippedRuns warmedUp(FakeRunner runner, int rounds, int workers) throws Exception {
    ShippedRuns shipped = new ShippedRuns(runner, SNIPPETS, Clock.fixed(START, ZoneOffset.UTC));
    shipped.warmUp(rounds, workers).get(10, TimeUnit.SECONDS);
    return shipped;
  }

  @Test
  void a_snippet_that_printed_the_same_on_every_start_up_run_answers_its_unchanged_source() throws Exception {
    FakeRunner runner = new FakeRunner(r -> ok(r.source().equals(sink.source()) ? "sink" : "txn"));
    ShippedRuns shipped = warmedUp(runner, 3, 2);

    assertEquals(3 * 2 * SNIPPETS.all().size(), runner.runs.get(), "every snippet ran rounds x workers times");
    ShippedRuns.Kept kept = shipped.of(sink.source()).orElseThrow();
    assertEquals("sink", kept.result().stdout());
    assertEquals(6, kept.runs());
    assertEquals(START, kept.at());
    assertNull(kept.result().timing(), "the queue and worker times of one start-up run are not passed off as this run's");
    assertEquals(7, kept.result().elapsedMs(), "how long the code ran is kept");
    assertEquals("txn", shipped.of(txn.source()).orElseThrow().result().stdout());
  }

  @Test
  void a_changed_source_is_never_answered_from_the_start_up_runs() throws Exception {
    ShippedRuns shipped = warmedUp(new FakeRunner(r -> ok("same")), 2, 1);

    assertTrue(shipped.of(sink.source() + "\n").isEmpty(), "a trailing newline is a change");
    String oneSpaceMore = sink.source().replaceFirst("\\{", "{ ");
    assertNotEquals(sink.source(), oneSpaceMore);
    assertTrue(shipped.of(oneSpaceMore).isEmpty(), "a space is a change");
    assertTrue(shipped.of("public class Main { public static void main(String[] a) { } }").isEmpty());
  }

  @Test
  void a_snippet_whose_runs_printed_differently_is_run_every_time() throws Exception {
    AtomicInteger n = new AtomicInteger();
    ShippedRuns shipped = warmedUp(new FakeRunner(r -> ok(r.source().equals(sink.source()) ? "run " + n.incrementAndGet() : "txn")), 3, 2);

    assertTrue(shipped.of(sink.source()).isEmpty(), "its output depends on the run: nothing to reuse");
    assertTrue(shipped.of(txn.source()).isPresent(), "the other snippet is unaffected");
  }

  @Test
  void a_snippet_that_did_not_end_ok_every_time_is_not_kept() throws Exception {
    AtomicInteger n = new AtomicInteger();
    ShippedRuns shipped = warmedUp(new FakeRunner(r -> r.source().equals(sink.source()) && n.incrementAndGet() == 4
        ? new RunResult(Outcome.TIMEOUT, "", "", List.of(), 6000) : ok("out")), 3, 2);

    assertTrue(shipped.of(sink.source()).isEmpty(), "one timed-out run of six");
  }

  @Test
  void a_warm_up_the_queue_refused_keeps_nothing_and_still_ends() throws Exception {
    FakeRunner runner = new FakeRunner(r -> ok("out")) {
      @Override
      public CompletableFuture<RunResult> submit(RunRequest request) {
        if (runs.incrementAndGet() > 3) throw new IllegalStateException("the queue is full");
        return CompletableFuture.completedFuture(answer.apply(request));
      }
    };
    ShippedRuns shipped = warmedUp(runner, 5, 1);

    assertTrue(shipped.of(sink.source()).isEmpty());
    assertTrue(shipped.of(txn.source()).isEmpty());
  }
}
