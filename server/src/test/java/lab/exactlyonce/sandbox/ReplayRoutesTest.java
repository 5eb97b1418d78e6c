package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The replay lab over HTTP with real sandbox workers: knobs, params, traces, and the knob grid's invariants. */
@Tag("sandbox")
class ReplayRoutesTest extends ServerTest {

  @Override
  protected TestServer startServer() {
    return TestServer.startWithSandbox(2);
  }

  @Test
  void a_snippet_lists_its_knobs_with_ranges_defaults_and_labels() throws Exception {
    assertEquals(JSON.readTree("[" +
            "{\"name\":\"CRASH_AFTER\",\"type\":\"int\",\"min\":1,\"max\":5,\"default\":4,\"label\":\"Crash after this many records\"},"
            + "{\"name\":\"CHECKPOINT_AFTER\",\"type\":\"int\",\"min\":1,\"max\":5,\"default\":2,\"label\":\"Checkpoint every this many records\"},"
            + "{\"name\":\"CRASH_BEFORE_COMPLETE\",\"type\":\"boolean\",\"min\":false,\"max\":true,\"default\":false,"
            + "\"label\":\"Crash at the next checkpoint, after its pre-commit but before it completes\"},"
            + "{\"name\":\"CRASH_BEFORE_COMMIT\",\"type\":\"boolean\",\"min\":false,\"max\":true,\"default\":false,"
            + "\"label\":\"Crash at the next checkpoint, after its pre-commit but before its commit\"}]"),
        JSON.readTree(server.get("/api/snippets/sink-demo").body()).get("knobs"));
    assertEquals(JSON.readTree("[{\"name\":\"TTL_SECONDS\",\"type\":\"long\",\"min\":10,\"max\":120,\"default\":60,"
            + "\"label\":\"Seconds a seen event id is remembered\"}]"),
        JSON.readTree(server.get("/api/snippets/txn-dedupe-demo").body()).get("knobs"));
  }

  @Test
  void the_unchanged_demo_is_answered_from_the_runs_at_the_start_and_a_changed_one_runs_on_a_worker() throws Exception {
    AtomicInteger ran = new AtomicInteger();
    server.app().sandbox().onFinished(r -> ran.incrementAndGet());
    String source = JSON.readTree(server.get("/api/snippets/sink-demo").body()).get("source").asText();

    JsonNode shipped = run(JSON.writeValueAsString(Map.of("source", source)));
    assertEquals("ok", shipped.get("status").asText());
    assertEquals("AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        shipped.get("stdout").asText());
    assertEquals(20, shipped.get("shipped").get("runs").asInt(), "10 rounds on each of the 2 workers, all alike");
    assertTrue(shipped.get("trace").size() > 10, "the trace comes with it");
    assertTrue(shipped.path("timing").isMissingNode(), "no queue or worker time is claimed for it: " + shipped);
    assertEquals(0, ran.get(), "no worker ran it");

    JsonNode changed = run(JSON.writeValueAsString(Map.of("source", source + "\n// my copy\n")));
    assertEquals(shipped.get("stdout"), changed.get("stdout"));
    assertTrue(changed.path("shipped").isMissingNode(), changed.toString());
    assertTrue(changed.get("timing").get("workerMs").asDouble() > 0, changed.toString());
    assertEquals(1, ran.get(), "a worker ran the changed copy");
  }

  @Test
  void a_run_returns_the_trace_with_absent_fields_left_out() throws Exception {
    JsonNode run = run("{\"snippet\":\"sink-demo\"}");
    assertEquals("ok", run.get("status").asText());
    assertEquals("AppendSink rows=7 sum=220 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        run.get("stdout").asText());
    JsonNode trace = run.get("trace");
    for (int i = 0; i < trace.size(); i++) assertEquals(i + 1, trace.get(i).get("seq").asLong(), "seq counts from 1");
    List<JsonNode> declarations = new ArrayList<>();
    trace.forEach(e -> {
      if (e.get("type").asText().equals("sink")) declarations.add(e);
    });
    assertEquals(List.of(JSON.readTree("{\"seq\":1,\"type\":\"sink\",\"sink\":\"AppendSink\",\"kind\":\"append\"}"),
        JSON.readTree("{\"seq\":2,\"type\":\"sink\",\"sink\":\"UpsertSink\",\"kind\":\"upsert\"}"),
        JSON.readTree("{\"seq\":3,\"type\":\"sink\",\"sink\":\"TwoPhaseSink\",\"kind\":\"append\"}")), declarations,
        "the sinks declare their kinds before the job starts");
    JsonNode firstRead = firstLike(trace, "{\"type\":\"read\",\"offset\":0,\"key\":\"o1\",\"value\":10}");
    JsonNode write = firstLike(trace, "{\"type\":\"write\",\"sink\":\"TwoPhaseSink\",\"key\":\"o1\",\"value\":10,"
        + "\"txn\":\"txn-1\",\"visible\":false}");
    JsonNode dirtyRead = firstLike(trace, "{\"type\":\"consume\",\"key\":\"o1\",\"value\":10,\"isolation\":\"read_uncommitted\"}");
    assertEquals(4, firstRead.get("seq").asLong(), "the job reads o1 right after the declarations");
    assertEquals(firstRead.get("seq").asLong() + 3, write.get("seq").asLong(), "o1 reaches the third sink after two");
    assertEquals(write.get("seq").asLong() + 1, dirtyRead.get("seq").asLong(), "a dirty reader sees it at once");
  }

  @Test
  void a_sink_of_an_unknown_kind_is_a_runtime_error_naming_the_kinds_there_are() throws Exception {
    JsonNode run = run(JSON.writeValueAsString(Map.of("source", "import lab.exactlyonce.sandbox.engine.Trace;\n"
        + "public class Keyed {\n  public static void main(String[] a) {\n    Trace.sink(\"UpsertSink\", \"keyed\");\n  }\n}\n")));
    String message = "java.lang.IllegalArgumentException: Trace.sink(\"UpsertSink\", \"keyed\"): the kind must be"
        + " \"append\" (every write adds a row) or \"upsert\" (a write replaces the row with the same key)";
    assertEquals("runtime_error", run.get("status").asText(), run.toString());
    assertEquals(JSON.createArrayNode().add(JSON.createObjectNode().put("line", 4).put("column", 0).put("message", message)),
        run.get("diagnostics"));
    assertEquals("Exception in thread \"main\" " + message + "\n\tat Keyed.main(Keyed.java:4)\n", run.get("stderr").asText());
    assertEquals(JSON.createArrayNode(), run.get("trace"));
  }

  /** The first event that is {@code expected} apart from its seq. */
  private static JsonNode firstLike(JsonNode trace, String expected) throws Exception {
    JsonNode want = JSON.readTree(expected);
    for (JsonNode e : trace) {
      ObjectNode withoutSeq = e.deepCopy();
      withoutSeq.remove("seq");
      if (withoutSeq.equals(want)) return e;
    }
    throw new AssertionError("no event " + expected + " in " + trace);
  }

  @Test
  void knobs_rewrite_the_declarations_of_the_source_sent() throws Exception {
    String source = JSON.readTree(server.get("/api/snippets/txn-dedupe-demo").body()).get("source").asText();
    JsonNode run = run(JSON.writeValueAsString(Map.of("snippet", "txn-dedupe-demo", "source", source,
        "params", Map.of("TTL_SECONDS", 120))));
    assertEquals("ok", run.get("status").asText(), run.toString());
    assertEquals("read_uncommitted: 6 records sum=170\nread_committed : 4 records sum=100\n"
        + "dedupe(ttl=120s) kept: e1@0, e2@5, e3@30\nseen-set size at end: 3\n", run.get("stdout").asText());
  }

  /** The trace without the sinks, reads, writes and reads of consumers: the checkpoints, crashes and transactions. */
  private static List<String> steps(JsonNode run) {
    List<String> steps = new ArrayList<>();
    run.get("trace").forEach(e -> {
      if (!List.of("sink", "read", "write", "consume").contains(e.get("type").asText())) {
        steps.add(e.get("type").asText() + (e.has("txn") ? " " + e.get("txn").asText() : "")
            + (e.has("offset") ? " " + e.get("offset").asLong() : "") + (e.has("note") ? " " + e.get("note").asText() : ""));
      }
    });
    return steps;
  }

  @Test
  void crash_before_complete_aborts_the_transaction_pre_committed_for_the_checkpoint_that_never_completed() throws Exception {
    JsonNode run = run("{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_AFTER\":2,\"CRASH_BEFORE_COMPLETE\":true}}");
    assertEquals("AppendSink rows=7 sum=180 DUPLICATES\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        run.get("stdout").asText());
    assertEquals(List.of("barrier", "precommit txn-1", "crash crash after the pre-commit of checkpoint 1, before it completed",
        "abort txn-1", "abort txn-2", "replay 0",
        "barrier", "precommit txn-3", "checkpoint", "commit txn-3",
        "barrier", "precommit txn-4", "checkpoint", "commit txn-4",
        "barrier", "precommit txn-5", "checkpoint", "commit txn-5"), steps(run));
  }

  @Test
  void crash_before_commit_commits_the_pre_committed_transaction_on_recovery() throws Exception {
    JsonNode run = run("{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_BEFORE_COMMIT\":true}}");
    assertEquals("AppendSink rows=5 sum=150 OK\nUpsertSink rows=5 sum=150 OK\nTwoPhaseSink rows=5 sum=150 OK\n",
        run.get("stdout").asText());
    assertEquals(List.of("barrier", "precommit txn-1", "checkpoint", "commit txn-1",
        "barrier", "precommit txn-2", "checkpoint", "crash crash after checkpoint 2 completed, before its commit",
        "commit txn-2", "abort txn-3", "replay 4",
        "barrier", "precommit txn-4", "checkpoint", "commit txn-4"), steps(run));
  }

  @Test
  void a_trace_past_its_bound_comes_back_from_the_worker_truncated() throws Exception {
    JsonNode run = run(JSON.writeValueAsString(Map.of("source", "import lab.exactlyonce.sandbox.engine.Trace;\n"
        + "public class Flood { public static void main(String[] a) {"
        + " for (int i = 0; i < 20000; i++) Trace.write(\"Sink\", \"k\" + i, i, null, true); } }")));
    assertEquals("ok", run.get("status").asText(), run.toString());
    assertEquals(5001, run.get("trace").size());
    assertEquals(JSON.readTree("{\"seq\":5001,\"type\":\"truncated\","
        + "\"note\":\"the trace holds at most 5000 events; later events were dropped\"}"), run.get("trace").get(5000));
  }

  /**
   * Every combination of the sink demo's knobs, through the real sandbox: each of the three crash points (after the
   * record, after the pre-commit before the checkpoint completes, after it completes before the commit) at every
   * record and checkpoint interval. With both checkpoint crash points set the first one wins, as with only it set.
   */
  static Stream<Arguments> grid() {
    List<Arguments> out = new ArrayList<>();
    for (int crash = 1; crash <= 5; crash++) {
      for (int checkpoint = 1; checkpoint <= 5; checkpoint++) {
        out.add(arguments(crash, checkpoint, false, false));
        out.add(arguments(crash, checkpoint, true, false));
        out.add(arguments(crash, checkpoint, false, true));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "CRASH_AFTER={0} CHECKPOINT_AFTER={1} CRASH_BEFORE_COMPLETE={2} CRASH_BEFORE_COMMIT={3}")
  @MethodSource("grid")
  void every_knob_setting_keeps_the_upsert_and_two_phase_sinks_exact_and_the_append_sink_off_by_the_replay(
      int crash, int checkpoint, boolean beforeComplete, boolean beforeCommit) throws Exception {
    JsonNode run = run("{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_AFTER\":" + crash + ",\"CHECKPOINT_AFTER\":"
        + checkpoint + ",\"CRASH_BEFORE_COMPLETE\":" + beforeComplete + ",\"CRASH_BEFORE_COMMIT\":" + beforeCommit + "}}");
    assertEquals("ok", run.get("status").asText(), run.toString());
    JsonNode trace = run.get("trace");
    int crashes = 0;
    int replays = 0;
    boolean replayed = false;
    Set<Long> readBeforeCrash = new HashSet<>();
    int reread = 0;
    for (JsonNode e : trace) {
      String type = e.get("type").asText();
      if (type.equals("crash")) crashes++;
      if (type.equals("replay")) {
        replays++;
        replayed = true;
      }
      if (type.equals("read")) {
        if (!replayed) readBeforeCrash.add(e.get("offset").asLong());
        else if (readBeforeCrash.contains(e.get("offset").asLong())) reread++;
      }
    }
    assertEquals(1, crashes, "one crash");
    assertEquals(1, replays, "one replay");
    int appendRows = 5 + reread;
    String[] lines = run.get("stdout").asText().split("\n");
    assertTrue(lines[0].startsWith("AppendSink rows=" + appendRows + " "), lines[0] + ", expected " + appendRows + " rows");
    assertEquals(reread == 0 ? "OK" : "DUPLICATES", lines[0].substring(lines[0].lastIndexOf(' ') + 1));
    assertEquals("UpsertSink rows=5 sum=150 OK", lines[1]);
    assertEquals("TwoPhaseSink rows=5 sum=150 OK", lines[2]);
    // and every transaction the two-phase sink pre-committed ends exactly once: committed or aborted, never both
    Set<String> preCommitted = new HashSet<>();
    Set<String> committed = new HashSet<>();
    Set<String> aborted = new HashSet<>();
    for (JsonNode e : trace) {
      if (e.get("type").asText().equals("precommit")) preCommitted.add(e.get("txn").asText());
      if (e.get("type").asText().equals("commit")) assertTrue(committed.add(e.get("txn").asText()), "committed once");
      if (e.get("type").asText().equals("abort")) assertTrue(aborted.add(e.get("txn").asText()), "aborted once");
    }
    Set<String> ended = new HashSet<>(committed);
    ended.addAll(aborted);
    assertTrue(ended.containsAll(preCommitted), "left pre-committed: " + preCommitted + ", ended: " + ended);
    committed.retainAll(aborted);
    assertEquals(Set.of(), committed);
  }

  static Stream<Arguments> badRuns() {
    return Stream.of(
        arguments("an unknown snippet", "{\"snippet\":\"crash-demo\",\"params\":{\"CRASH_AFTER\":3}}",
            "no snippet 'crash-demo'; 'snippet' must be one of: sink-demo, txn-dedupe-demo, outbox-demo"),
        arguments("a snippet id that is not a string", "{\"snippet\":7}",
            "'snippet' must be a string, got 7"),
        arguments("params without a snippet", "{\"source\":\"class A {}\",\"params\":{\"CRASH_AFTER\":3}}",
            "'params' needs 'snippet': knobs belong to a snippet"),
        arguments("params that are not an object", "{\"snippet\":\"sink-demo\",\"params\":[3]}",
            "'params' must be an object, got [3]"),
        arguments("an unknown knob", "{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_AT\":3}}",
            "snippet 'sink-demo' has no knob 'CRASH_AT'; its knobs: CRASH_AFTER, CHECKPOINT_AFTER, CRASH_BEFORE_COMPLETE, CRASH_BEFORE_COMMIT"),
        arguments("a knob of the other snippet", "{\"snippet\":\"txn-dedupe-demo\",\"params\":{\"CRASH_AFTER\":3}}",
            "snippet 'txn-dedupe-demo' has no knob 'CRASH_AFTER'; its knobs: TTL_SECONDS"),
        arguments("a number above the range", "{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_AFTER\":9}}",
            "knob 'CRASH_AFTER' of snippet 'sink-demo' must be from 1 to 5, got 9"),
        arguments("a number below the range", "{\"snippet\":\"txn-dedupe-demo\",\"params\":{\"TTL_SECONDS\":5}}",
            "knob 'TTL_SECONDS' of snippet 'txn-dedupe-demo' must be from 10 to 120, got 5"),
        arguments("a string for a number", "{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_AFTER\":\"3\"}}",
            "knob 'CRASH_AFTER' of snippet 'sink-demo' takes a whole number from 1 to 5, got \"3\""),
        arguments("a fraction for a number", "{\"snippet\":\"sink-demo\",\"params\":{\"CHECKPOINT_AFTER\":2.5}}",
            "knob 'CHECKPOINT_AFTER' of snippet 'sink-demo' takes a whole number from 1 to 5, got 2.5"),
        arguments("a number for a boolean", "{\"snippet\":\"sink-demo\",\"params\":{\"CRASH_BEFORE_COMMIT\":1}}",
            "knob 'CRASH_BEFORE_COMMIT' of snippet 'sink-demo' takes true or false, got 1"),
        arguments("an edited source without the declaration",
            "{\"snippet\":\"sink-demo\",\"source\":\"public class A { public static void main(String[] a) {} }\","
                + "\"params\":{\"CRASH_AFTER\":3}}",
            "the source no longer declares 'static final int CRASH_AFTER = ...;', which knob 'CRASH_AFTER' sets;"
                + " restore that line or reset the snippet"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRuns")
  void a_bad_run_request_is_a_400_naming_the_culprit(String desc, String body, String message) throws Exception {
    HttpResponse<String> res = server.postJson("/api/run", body);
    assertEquals(400, res.statusCode(), res.body());
    assertEquals(message, JSON.readTree(res.body()).get("error").asText());
  }

  private JsonNode run(String body) throws Exception {
    HttpResponse<String> res = server.postJson("/api/run", body);
    assertEquals(200, res.statusCode(), res.body());
    return JSON.readTree(res.body());
  }
}
