package lab.exactlyonce.sandbox;

import lab.exactlyonce.TestJvm;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.TraceEvent;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.snippet.SnippetParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The outbox demo's knobs, set as the replay lab sets them and run in the real sandbox: who crashes decides which way
 * loses or doubles a charge, a CDC relay re-emits everything since its last offset flush, and an inbox pruned before
 * a copy arrives lets the copy through. ContentTest checks the demo as written; this checks what each setting shows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("sandbox")
class OutboxDemoTest {
  static final String ORDERS = "Orders committed=5 sum=150";

  Sandbox sandbox;
  String source;

  @BeforeAll
  void start() throws InterruptedException {
    source = SnippetCatalog.load(Path.of("snippets")).find("outbox-demo").orElseThrow().source();
    sandbox = new Sandbox(TestJvm.sandboxDefaults().withWorkers(1));
    assertTrue(sandbox.awaitReady(Duration.ofSeconds(60)), "workers ready");
  }

  @AfterAll
  void stop() {
    sandbox.close();
  }

  static Stream<Arguments> settings() {
    return Stream.of(
        // The service dies between its commit and its publish: only the dual write has that gap.
        arguments(1, 3, false, 10, "DualWrite topic=4 charges=4 sum=120 LOST o3",
            "Outbox topic=5 charges=5 sum=150 OK", "Outbox+Inbox topic=5 charges=5 sum=150 OK"),
        arguments(1, 5, true, 1, "DualWrite topic=4 charges=4 sum=100 LOST o5",
            "Outbox topic=5 charges=5 sum=150 OK", "Outbox+Inbox topic=5 charges=5 sum=150 OK"),
        // The polling relay dies before marking the row sent: that one row goes out twice.
        arguments(2, 3, false, 10, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=6 charges=6 sum=180 DUPLICATES o3", "Outbox+Inbox topic=6 charges=5 sum=150 OK"),
        // The CDC relay resumes from its last offset flush (every third event): all it sent since goes out again.
        arguments(2, 3, true, 10, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3", "Outbox+Inbox topic=8 charges=5 sum=150 OK"),
        arguments(2, 4, true, 10, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=6 charges=6 sum=190 DUPLICATES o4", "Outbox+Inbox topic=6 charges=5 sum=150 OK"),
        arguments(2, 5, true, 10, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=7 charges=7 sum=240 DUPLICATES o4 o5", "Outbox+Inbox topic=7 charges=5 sum=150 OK"),
        // The consumers die before committing their offset: redelivery, whichever way the event came.
        arguments(3, 3, false, 10, "DualWrite topic=5 charges=6 sum=180 DUPLICATES o3",
            "Outbox topic=5 charges=6 sum=180 DUPLICATES o3", "Outbox+Inbox topic=5 charges=5 sum=150 OK"),
        // A copy is handled 5 ticks after its original (4 for the restart, 1 its own); CDC's first copy 7 after.
        arguments(2, 3, false, 5, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=6 charges=6 sum=180 DUPLICATES o3", "Outbox+Inbox topic=6 charges=6 sum=180 DUPLICATES o3"),
        arguments(2, 3, false, 6, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=6 charges=6 sum=180 DUPLICATES o3", "Outbox+Inbox topic=6 charges=5 sum=150 OK"),
        arguments(2, 3, true, 7, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3",
            "Outbox+Inbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3"),
        arguments(2, 3, true, 8, "DualWrite topic=5 charges=5 sum=150 OK",
            "Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3", "Outbox+Inbox topic=8 charges=5 sum=150 OK"),
        arguments(3, 3, false, 5, "DualWrite topic=5 charges=6 sum=180 DUPLICATES o3",
            "Outbox topic=5 charges=6 sum=180 DUPLICATES o3", "Outbox+Inbox topic=5 charges=6 sum=180 DUPLICATES o3"));
  }

  @ParameterizedTest(name = "CRASH_POINT={0} CRASH_AT={1} CDC={2} INBOX_TTL={3}")
  @MethodSource("settings")
  void each_setting_prints_what_that_crash_does_to_each_way(int crashPoint, int crashAt, boolean cdc, int ttl,
                                                           String dualWrite, String outbox, String inbox)
      throws Exception {
    RunResult run = run(crashPoint, crashAt, cdc, ttl);
    assertEquals(List.of(ORDERS, dualWrite, outbox, inbox), run.stdout().lines().toList());
  }

  static Stream<Arguments> restarts() {
    return Stream.of(
        arguments(1, false, List.of(), "the order service dies after committing o3, before publishing it"),
        arguments(2, false, List.of(2L), "the relay dies after publishing o3, before marking it sent"),
        arguments(2, true, List.of(0L), "the CDC relay dies after publishing o3; its offset was last flushed at 0"),
        arguments(3, false, List.of(2L),
            "the payment consumers die after charging o3, before committing their offsets"));
  }

  /** The replay timeline draws the crash with its cause, and the rewind the restart makes (none for the service). */
  @ParameterizedTest(name = "CRASH_POINT={0} CDC={1}")
  @MethodSource("restarts")
  void the_timeline_shows_who_crashed_and_where_the_restart_rewinds_to(int crashPoint, boolean cdc, List<Long> replays,
                                                                         String crash) throws Exception {
    RunResult run = run(crashPoint, 3, cdc, 10);
    List<TraceEvent> trace = run.trace();
    assertEquals(List.of(crash), trace.stream().filter(e -> e.type().equals("crash")).map(TraceEvent::note).toList());
    assertEquals(replays, trace.stream().filter(e -> e.type().equals("replay")).map(TraceEvent::offset).toList());
  }

  private RunResult run(int crashPoint, int crashAt, boolean cdc, int ttl) throws Exception {
    String variant = SnippetParameters.rewrite(source,
        Map.of("CRASH_POINT", crashPoint, "CRASH_AT", crashAt, "CDC", cdc, "INBOX_TTL", ttl));
    RunResult run = sandbox.submit(RunRequest.run("outbox-demo-test", variant)).get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.OK, run.status(), run.toString());
    assertEquals("", run.stderr());
    return run;
  }
}
