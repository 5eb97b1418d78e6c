package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The trace API learner code may call, and the traces the two demos record. */
class TraceTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();
  private static final String IMPORT = "import lab.exactlyonce.sandbox.engine.Trace;\n";

  private static RunResult run(String source) {
    return RUNNER.run(source, SandboxLimits.defaults());
  }

  /** One line per event: "type sink offset key value txn visible checkpoint isolation kind note", nulls left out. */
  static List<String> lines(List<TraceEvent> trace) {
    List<String> out = new ArrayList<>();
    for (TraceEvent e : trace) {
      StringBuilder b = new StringBuilder(e.type());
      for (Object field : new Object[] {e.sink(), e.offset(), e.key(), e.value(), e.txn(), e.visible(), e.checkpoint(),
          e.isolation(), e.kind(), e.note()}) {
        if (field != null) b.append(' ').append(field);
      }
      out.add(b.toString());
    }
    return out;
  }

  @Test
  void every_call_of_the_api_becomes_one_numbered_event() {
    RunResult result = run(IMPORT + main(String.join("\n",
        "Trace.sink(\"Sink\", \"upsert\");",
        "Trace.read(0, \"o1\", 10);",
        "Trace.write(\"Sink\", \"o1\", 10, \"txn-1\", false);",
        "Trace.write(\"Sink\", \"o1\", \"ten\", null, true);",
        "Trace.barrier(1);",
        "Trace.preCommit(\"Sink\", \"txn-1\");",
        "Trace.checkpointComplete(1);",
        "Trace.commit(\"Sink\", \"txn-1\");",
        "Trace.abort(\"Sink\", \"txn-2\");",
        "Trace.crash(\"boom\");",
        "Trace.replay(2);",
        "Trace.consume(\"read_committed\", \"o1\", 10);",
        "Trace.read(1, \"o2\", \"twenty\");",
        "Trace.consume(\"read_uncommitted\", \"o2\", \"x\");")));

    assertEquals(Outcome.OK, result.status(), result.toString());
    assertEquals(List.of("sink Sink upsert", "read 0 o1 10", "write Sink o1 10 txn-1 false", "write Sink o1 ten true", "barrier 1",
        "precommit Sink txn-1", "checkpoint 1", "commit Sink txn-1", "abort Sink txn-2", "crash boom", "replay 2",
        "consume o1 10 read_committed", "read 1 o2 twenty", "consume o2 x read_uncommitted"), lines(result.trace()));
    for (int i = 0; i < result.trace().size(); i++) assertEquals(i + 1, result.trace().get(i).seq());
  }

  @Test
  void a_sink_is_declared_once_and_declaring_it_again_alike_records_nothing() {
    RunResult result = run(IMPORT + main("for (int i = 0; i < 3; i++) Trace.sink(\"Ledger\", \"append\");"
        + " Trace.sink(\"Totals\", \"upsert\"); Trace.sink(\"Ledger\", \"append\");"));

    assertEquals(Outcome.OK, result.status(), result.toString());
    assertEquals(List.of("sink Ledger append", "sink Totals upsert"), lines(result.trace()));
  }

  static Stream<Arguments> badDeclarations() {
    return Stream.of(
        arguments("Trace.sink(\"UpsertSink\", \"keyed\");", "java.lang.IllegalArgumentException:"
            + " Trace.sink(\"UpsertSink\", \"keyed\"): the kind must be \"append\" (every write adds a row) or"
            + " \"upsert\" (a write replaces the row with the same key)"),
        arguments("Trace.sink(\"UpsertSink\", \"Upsert\");", "java.lang.IllegalArgumentException:"
            + " Trace.sink(\"UpsertSink\", \"Upsert\"): the kind must be \"append\" (every write adds a row) or"
            + " \"upsert\" (a write replaces the row with the same key)"),
        arguments("Trace.sink(\"UpsertSink\", null);", "java.lang.IllegalArgumentException:"
            + " Trace.sink(\"UpsertSink\", null): the kind must be \"append\" (every write adds a row) or"
            + " \"upsert\" (a write replaces the row with the same key)"),
        arguments("Trace.sink(\" \", \"append\");", "java.lang.IllegalArgumentException:"
            + " Trace.sink(\" \", \"append\"): the sink needs a name"),
        arguments("Trace.sink(\"UpsertSink\", \"upsert\");\nTrace.sink(\"UpsertSink\", \"append\");",
            "java.lang.IllegalArgumentException: Trace.sink(\"UpsertSink\", \"append\"): sink \"UpsertSink\" was"
                + " declared \"upsert\" before; a sink has one kind"));
  }

  @ParameterizedTest
  @MethodSource("badDeclarations")
  void a_bad_declaration_is_a_runtime_error_at_its_line_naming_what_is_allowed(String calls, String message) {
    RunResult result = run(IMPORT + "public class Main {\n  public static void main(String[] args) {\n"
        + "    Trace.read(0, \"o1\", 10);\n" + calls + "\n  }\n}\n");

    assertEquals(Outcome.RUNTIME_ERROR, result.status(), result.toString());
    int line = 5 + (int) calls.chars().filter(c -> c == '\n').count();
    assertEquals(List.of(new Diagnostic(line, 0, message)), result.diagnostics());
    assertTrue(result.stderr().startsWith("Exception in thread \"main\" " + message + "\n\tat Main.main(Main.java:"
        + line + ")"), result.stderr());
    assertEquals("read 0 o1 10", lines(result.trace()).get(0), "the events before the mistake are kept");
  }

  @Test
  void outside_the_sandbox_a_bad_kind_still_throws() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Trace.sink("Sink", "merge"));
    assertEquals("Trace.sink(\"Sink\", \"merge\"): the kind must be \"append\" (every write adds a row) or"
        + " \"upsert\" (a write replaces the row with the same key)", e.getMessage());
    Trace.sink("Sink", "upsert");
    Trace.sink("Sink", "append"); // no run, no trace: nothing to contradict
  }

  @Test
  void a_trace_keeps_five_thousand_events_and_then_says_it_was_truncated() {
    RunResult result = run(IMPORT + main("for (int i = 0; i < 20000; i++) Trace.read(i, \"k\", i);"));

    assertEquals(Outcome.OK, result.status(), result.toString());
    assertEquals(5001, result.trace().size());
    TraceEvent last = result.trace().get(5000);
    assertEquals("truncated", last.type());
    assertEquals("the trace holds at most 5000 events; later events were dropped", last.note());
  }

  @Test
  void long_strings_are_cut() {
    RunResult result = run(IMPORT + main("StringBuilder b = new StringBuilder(); for (int i = 0; i < 1000; i++) b.append('x');"
        + " Trace.crash(b.toString());"));

    assertEquals("x".repeat(200) + "...", result.trace().get(0).note());
  }

  @Test
  void a_run_that_records_nothing_has_an_empty_trace_and_runs_do_not_share_traces() {
    run(IMPORT + main("Trace.crash(\"first run\");"));
    RunResult second = run(main("System.out.println(1);"));

    assertEquals(List.of(), second.trace());
  }

  @Test
  void only_the_static_recording_methods_of_trace_may_be_named() {
    RunResult result = run(IMPORT + main("Object o = Trace.class.getClassLoader(); System.out.println(o);"));

    assertEquals(Outcome.REJECTED, result.status());
    assertEquals("java.lang.Class.getClassLoader is not allowed in the sandbox", result.diagnostics().get(0).message());
  }

  @Test
  void other_classes_of_the_application_stay_out_of_reach() {
    RunResult result = run("import lab.exactlyonce.sandbox.engine.Budget;\n" + main("Budget.tick();"));

    assertEquals(Outcome.COMPILE_ERROR, result.status(), result.toString());
  }

  @Test
  void outside_the_sandbox_the_api_does_nothing() {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
      System.setOut(capture);
      System.setErr(capture);
      Trace.read(0, "o1", 10);
      Trace.crash("not in a run");
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    assertEquals("", printed.toString(StandardCharsets.UTF_8), "nothing is printed");

    RunResult next = run(main("System.out.println(1);"));
    assertEquals(Outcome.OK, next.status(), next.toString());
    assertEquals(List.of(), next.trace(), "nothing recorded outside a run shows up in the next run's trace");
  }

  @Test
  void the_sink_demo_records_the_crash_the_abort_the_replay_and_what_each_reader_saw() throws IOException {
    RunResult result = run(resource("/snippets/exactly-once/SinkDemo.java"));

    assertEquals(Outcome.OK, result.status(), result.toString());
    List<String> trace = lines(result.trace());
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 4; i++) orderWrites(expected, i, i < 2 ? "txn-1" : "txn-2");
    List<String> full = new ArrayList<>(List.of("sink AppendSink append", "sink UpsertSink upsert",
        "sink TwoPhaseSink append"));
    full.addAll(expected.subList(0, 10));
    full.addAll(List.of("barrier 1", "precommit TwoPhaseSink txn-1", "checkpoint 1", "commit TwoPhaseSink txn-1",
        "consume o1 10 read_committed", "consume o2 20 read_committed"));
    full.addAll(expected.subList(10, 20));
    full.addAll(List.of("crash crash after 4 records", "abort TwoPhaseSink txn-2", "replay 2"));
    List<String> replayed = new ArrayList<>();
    for (int i = 2; i < 5; i++) orderWrites(replayed, i, i < 4 ? "txn-3" : "txn-4");
    full.addAll(replayed.subList(0, 10));
    full.addAll(List.of("barrier 2", "precommit TwoPhaseSink txn-3", "checkpoint 2", "commit TwoPhaseSink txn-3",
        "consume o3 30 read_committed", "consume o4 40 read_committed"));
    full.addAll(replayed.subList(10, 15));
    full.addAll(List.of("barrier 3", "precommit TwoPhaseSink txn-4", "checkpoint 3", "commit TwoPhaseSink txn-4",
        "consume o5 50 read_committed"));
    assertEquals(full, trace);

    assertEquals(1, trace.stream().filter(l -> l.startsWith("crash ")).count());
    assertEquals(List.of("replay 2"), trace.stream().filter(l -> l.startsWith("replay ")).toList());
    assertEquals(2, trace.stream().filter(l -> l.equals("write AppendSink o3 30 true")).count());
    assertEquals(2, trace.stream().filter(l -> l.equals("write AppendSink o4 40 true")).count());
    // the dirty reader saw o3 and o4 of the aborted transaction and again after the replay; the committed one once
    assertEquals(2, trace.stream().filter(l -> l.equals("consume o3 30 read_uncommitted")).count());
    assertEquals(1, trace.stream().filter(l -> l.equals("consume o3 30 read_committed")).count());
  }

  private static void orderWrites(List<String> out, int offset, String txn) {
    String id = "o" + (offset + 1);
    int amount = (offset + 1) * 10;
    out.add("read " + offset + " " + id + " " + amount);
    out.add("write AppendSink " + id + " " + amount + " true");
    out.add("write UpsertSink " + id + " " + amount + " true");
    out.add("write TwoPhaseSink " + id + " " + amount + " " + txn + " false");
    out.add("consume " + id + " " + amount + " read_uncommitted");
  }

  @Test
  void the_transaction_demo_records_what_each_isolation_level_consumed() throws IOException {
    RunResult result = run(resource("/snippets/exactly-once/TxnDedupeDemo.java"));

    assertEquals(Outcome.OK, result.status(), result.toString());
    List<String> trace = lines(result.trace());
    assertEquals(List.of("sink log append", "write log t1 10 t1 false", "write log t1 20 t1 false", "commit log t1",
        "write log t2 30 t2 false", "write log t2 40 t2 false", "abort log t2",
        "write log t3 30 t3 false", "write log t3 40 t3 false", "commit log t3",
        "consume t1 10 read_uncommitted", "consume t1 20 read_uncommitted", "consume t2 30 read_uncommitted",
        "consume t2 40 read_uncommitted", "consume t3 30 read_uncommitted", "consume t3 40 read_uncommitted",
        "consume t1 10 read_committed", "consume t1 20 read_committed", "consume t3 30 read_committed",
        "consume t3 40 read_committed",
        "sink dedupe append", "read 0 e1 0", "write dedupe e1 0 true", "read 1 e2 5", "write dedupe e2 5 true", "read 2 e1 20",
        "read 3 e3 30", "write dedupe e3 30 true", "read 4 e2 40", "read 5 e1 90", "write dedupe e1 90 true"), trace);
  }

  private static String resource(String path) throws IOException {
    try (InputStream in = TraceTest.class.getResourceAsStream(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
