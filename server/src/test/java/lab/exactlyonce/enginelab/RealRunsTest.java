package lab.exactlyonce.enginelab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue and the kept results, with engines that run only when the test lets them. */
class RealRunsTest {
  private final Scenarios scenarios = new Scenarios(SnippetCatalog.load(Path.of("snippets")));
  private final HeldEngines engines = new HeldEngines();
  private final RealRuns runs = new RealRuns(engines, 4);
  private static final String CLIENT = "10.0.0.1";

  /** Engines that hold each run until released, and fail a run whose CRASH_AFTER is 1. */
  static final class HeldEngines implements ScenarioRunner {
    final List<String> ran = new CopyOnWriteArrayList<>();
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public boolean warm() {
      return !ran.isEmpty();
    }

    @Override
    public JsonNode run(String scenario, Map<String, Object> knobs, Consumer<String> phase)
        throws EngineProcess.EngineFailure {
      phase.accept("running");
      ran.add(scenario + knobs);
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (String.valueOf(knobs.get("CRASH_AFTER")).equals("1")) throw new EngineProcess.EngineFailure("the engines failed: x");
      return JsonNodeFactory.instance.objectNode().put("ran", scenario + knobs);
    }

    @Override
    public void close() {}
  }

  @AfterEach
  void stop() {
    engines.release.countDown();
    runs.close();
  }

  private Map<String, Object> knobs(String json) throws Exception {
    return scenarios.find("seed-crash").knobValues((ObjectNode) new ObjectMapper().readTree(json));
  }

  /** Polls the run's status, as the page does, until it is the one expected. */
  private RealRuns.View awaitStatus(String id, String status) {
    return await("run " + id + " " + status).atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> runs.find(id).orElseThrow(), view -> view.status().equals(status));
  }

  @Test
  void the_same_settings_in_any_order_or_with_defaults_left_out_share_one_run_and_its_result() throws Exception {
    Scenario seed = scenarios.find("seed-crash");
    RealRuns.View first = runs.submit(seed, knobs("{}"), CLIENT);
    RealRuns.View again = runs.submit(seed, knobs("{\"CHECKPOINT_AFTER\":2,\"CRASH_AFTER\":4}"), CLIENT);
    assertEquals(first.id(), again.id());
    engines.release.countDown();
    RealRuns.View done = awaitStatus(first.id(), "done");
    RealRuns.View later = runs.submit(seed, knobs("{\"CRASH_BEFORE_COMMIT\":false}"), CLIENT);
    assertEquals("done", later.status());
    assertEquals(done.result(), later.result());
    assertEquals(1, engines.ran.size(), engines.ran.toString());
  }

  @Test
  void one_client_may_fill_half_the_queue_and_past_its_length_a_run_is_refused_with_a_retry_after()
      throws Exception {
    Scenario seed = scenarios.find("seed-crash");
    RealRuns.View running = runs.submit(seed, knobs("{\"CRASH_AFTER\":2}"), CLIENT);
    running = awaitStatus(running.id(), "running");
    RealRuns.View second = runs.submit(seed, knobs("{\"CRASH_AFTER\":3}"), CLIENT);
    RealRuns.View third = runs.submit(seed, knobs("{\"CRASH_AFTER\":5}"), CLIENT);
    assertEquals(List.of(0, 1, 2), List.of(running.position(), second.position(), third.position()));
    RealRuns.Busy greedy = assertThrows(RealRuns.Busy.class,
        () -> runs.submit(seed, knobs("{\"CHECKPOINT_AFTER\":5}"), CLIENT));
    assertEquals("you have 2 real runs waiting already", greedy.getMessage());
    assertEquals(third.id(), runs.submit(seed, knobs("{\"CRASH_AFTER\":5}"), "10.0.0.2").id(),
        "a waiting run is shared with anyone asking for the same settings");

    assertEquals(3, runs.submit(seed, knobs("{\"CHECKPOINT_AFTER\":3}"), "10.0.0.2").position());
    assertEquals(4, runs.submit(seed, knobs("{\"CHECKPOINT_AFTER\":4}"), "10.0.0.2").position());
    RealRuns.Busy full = assertThrows(RealRuns.Busy.class,
        () -> runs.submit(seed, knobs("{\"CHECKPOINT_AFTER\":1}"), "10.0.0.3"));
    assertEquals("the engine lab's queue is full (4 runs waiting)", full.getMessage());
    assertTrue(full.retryAfterSeconds() > 0);
  }

  @Test
  void a_failed_run_says_why_and_is_not_kept_so_the_next_press_tries_again() throws Exception {
    Scenario seed = scenarios.find("seed-crash");
    RealRuns.View failing = runs.submit(seed, knobs("{\"CRASH_AFTER\":1}"), CLIENT);
    engines.release.countDown();
    RealRuns.View failed = awaitStatus(failing.id(), "failed");
    assertEquals("the engines failed: x", failed.error());
    assertNotEquals(failing.id(), runs.submit(seed, knobs("{\"CRASH_AFTER\":1}"), CLIENT).id());
  }

  @Test
  void warming_up_runs_the_default_settings_once_keeps_the_result_and_is_not_repeated_while_warm() throws Exception {
    Scenario seed = scenarios.find("seed-crash");
    assertEquals("stopped", runs.engines());
    runs.warmUp(seed);
    assertEquals("warming", runs.engines());
    runs.warmUp(seed);
    RealRuns.View learners = runs.submit(seed, knobs("{}"), CLIENT);
    assertEquals(0, learners.position(), "a learner asking for the default settings shares the warm-up run: " + learners);
    engines.release.countDown();
    assertEquals("done", awaitStatus(learners.id(), "done").status());
    await().atMost(Duration.ofSeconds(5)).until(() -> runs.engines().equals("warm"));
    runs.warmUp(seed);
    assertEquals("warm", runs.engines());
    assertEquals(1, engines.ran.size(), "one warm-up, whatever was asked meanwhile: " + engines.ran);
  }

  @Test
  void the_typical_run_time_is_a_guess_until_runs_were_timed_and_then_their_median() throws Exception {
    assertEquals(5, runs.typicalSeconds(), "before any run");
    Scenario seed = scenarios.find("seed-crash");
    engines.release.countDown();
    awaitStatus(runs.submit(seed, knobs("{}"), CLIENT).id(), "done");
    assertEquals(1, runs.typicalSeconds(), "the held engines answer at once: at least a second is said");
  }
}
