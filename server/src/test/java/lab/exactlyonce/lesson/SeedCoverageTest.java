package lab.exactlyonce.lesson;

import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static lab.exactlyonce.CookieClient.JSON;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The bundled exactly-once lesson carries every part of the content spec: each check below names something a
 * student would miss if it went (a ladder rung, a table row, a failure mode, a flow branch, a key fact).
 */
class SeedCoverageTest {
  private static Lesson lesson;
  private static String allText;

  @BeforeAll
  static void load() throws Exception {
    LessonCatalog catalog = LessonCatalog.load(ContentFolder.resolve(Optional.empty(), "lessons"),
        SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn);
    lesson = catalog.require("exactly-once");
    allText = JSON.writeValueAsString(lesson);
  }

  @Test
  void gist_has_a_summary_and_key_ideas() {
    assertTrue(lesson.summary().contains("effect"), "the summary says the effect happens once");
    assertTrue(lesson.summary().contains("replay"), "the summary says records are replayed");
    int ideas = lesson.keyIdeas().size();
    assertTrue(ideas >= 5 && ideas <= 8, "5 to 8 key ideas, got " + ideas);
  }

  @Test
  void every_tab_has_content() {
    for (Tab tab : Tab.values()) {
      assertFalse(lesson.sectionsOn(tab).isEmpty(), "no section on tab " + tab.id());
    }
  }

  @Test
  void ladder_climbs_L1_to_L7_in_order_with_answers() {
    Block.Questions ladder = questions("ladder");
    assertEquals(List.of("L1", "L2", "L3", "L4", "L5", "L6", "L7"), ids(ladder.items(), Block.Question::id));
    for (Block.Question q : ladder.items()) {
      assertEquals(q.id(), q.level(), "level of " + q.id());
      assertTrue(q.answer().length() > 80, "answer of " + q.id() + " is too short to teach anything");
    }
    assertAll(
        () -> assertContains(item(ladder, "L1").question(), "three requirements"),
        () -> assertContains(item(ladder, "L2").answer(), "pre-commit"),
        () -> assertContains(item(ladder, "L3").answer(), "checkpoint interval"),
        () -> assertContains(item(ladder, "L4").answer(), "natural key"),
        () -> assertContains(item(ladder, "L5").answer(), "epoch"),
        () -> assertContains(item(ladder, "L6").answer(), "idempotency key"),
        () -> assertContains(item(ladder, "L7").answer(), "foreachBatch"));
  }

  @Test
  void interview_has_seven_questions_with_answers() {
    Block.Questions interview = questions("interview");
    assertEquals(List.of("iq1", "iq2", "iq3", "iq4", "iq5", "iq6", "iq7"), ids(interview.items(), Block.Question::id));
    for (Block.Question q : interview.items()) assertTrue(q.answer().length() > 80, "answer of " + q.id());
    Block.Questions ladder = questions("ladder");
    for (int i = 0; i < 7; i++) {
      assertFalse(ladder.items().get(i).question().equals(interview.items().get(i).question()),
          "interview question " + (i + 1) + " is worded exactly like the ladder's");
    }
  }

  /** A cell of a table row that must mention {@code text}. */
  record Mention(String row, int column, String text) {}

  static Stream<Arguments> tables() {
    return Stream.of(
        arguments("guarantees-table", List.of("Guarantee", "Mechanism", "On failure", "Cost", "Acceptable for"),
            List.of("At-most-once", "At-least-once", "Exactly-once (effectively)"),
            List.of(new Mention("g-at-most-once", 2, "lost"), new Mention("g-at-least-once", 2, "Duplicates"),
                new Mention("g-exactly-once", 4, "billing"))),
        arguments("sink-strategies-table", List.of("Strategy", "How", "Pros", "Cons", "Typical sinks"),
            List.of("Idempotent upsert", "Transactional two-phase commit", "Atomic file commit", "Batch-id idempotence",
                "Downstream dedupe"),
            List.of(new Mention("s-idempotent-upsert", 4, "ON CONFLICT"), new Mention("s-atomic-file-commit", 4, "Iceberg"),
                new Mention("s-batch-id", 4, "foreachBatch"))));
  }

  @ParameterizedTest(name = "{0} is complete")
  @MethodSource("tables")
  void table_is_complete(String id, List<String> columns, List<String> rows, List<Mention> mentions) {
    Block.Table table = block(id, Block.Table.class);
    assertEquals(columns, table.columns());
    assertEquals(rows, firstCells(table));
    for (Mention m : mentions) assertContains(cell(table, m.row(), m.column()), m.text());
  }

  @Test
  void duplicates_table_is_complete() {
    Block.Table table = block("duplicates-table", Block.Table.class);
    assertEquals(List.of("Weak spot", "Why", "Mitigation"), table.columns());
    assertEquals(List.of("dup-side-effects", "dup-non-determinism", "dup-txn-timeout", "dup-read-uncommitted",
        "dup-not-replayable", "dup-spark-custom-sinks"), ids(table.rows().subList(0, 6), Block.Row::id));
    String timeout = cell(table, "dup-txn-timeout", 1);
    assertAll(
        () -> assertContains(timeout, "transaction.timeout.ms"),
        () -> assertContains(timeout, "transaction.max.timeout.ms"),
        () -> assertContains(timeout, "15 minutes"),
        () -> assertContains(cell(table, "dup-not-replayable", 1), "MQTT"),
        () -> assertContains(cell(table, "dup-spark-custom-sinks", 2), "foreachBatch"));
  }

  @Test
  void three_links_list_four_steps_and_the_scope_note() {
    Block.Steps steps = block("three-links-steps", Block.Steps.class);
    assertEquals(List.of("Rewindable source", "Snapshot matches those offsets", "Sink publishes only that cut",
        "Crash aborts the open attempt"), ids(steps.items(), Block.Item::title));
    assertContains(steps.items().get(0).body(), "webhook");
    assertContains(steps.items().get(1).body(), "auto-commit");
    assertContains(block("three-links-scope", Block.Note.class).body(), "separate lesson");
  }

  @Test
  void reader_view_compares_the_preferred_and_tempting_sinks() {
    Block.Compare compare = block("reader-compare", Block.Compare.class);
    assertEquals("Commit with the checkpoint, or overwrite by key", compare.prefer().title());
    assertEquals("Append, then hope", compare.alternative().title());
    assertEquals(3, compare.prefer().points().size());
    assertEquals(3, compare.alternative().points().size());
  }

  @Test
  void failure_modes_misconceptions_and_traps_are_all_there() {
    assertEquals(List.of("HTTP inside the operator", "read_uncommitted consumers", "Dedupe TTL shorter than replay",
        "Transaction timeout during an outage"),
        ids(block("failure-modes-cards", Block.Cards.class).items().subList(0, 4), Block.Item::title));
    Block.Pairs myths = block("misconceptions-pairs", Block.Pairs.class);
    assertEquals(3, myths.items().size());
    assertEquals("Myth", myths.claimLabel());
    Block.Pairs traps = block("traps-pairs", Block.Pairs.class);
    assertEquals(2, traps.items().size());
    assertContains(traps.items().get(1).claim(), "transactional id");
  }

  @Test
  void design_scenario_has_its_cards_assumptions_constraints_and_model_answers() {
    Block.Scenario scenario = block("scenario-orders", Block.Scenario.class);
    assertContains(scenario.prompt(), "crash after four records");
    assertEquals(List.of("Requirements", "Traffic / scale", "Latency", "Consistency", "Availability"),
        ids(scenario.cards(), Block.Item::title));
    assertContains(scenario.cards().get(2).body(), "payment call cannot wait");
    assertEquals(2, scenario.failureAssumptions().size());
    assertEquals(2, scenario.constraints().size());
    assertEquals(List.of("API", "Data", "Architecture"), ids(scenario.questions(), Block.ScenarioQuestion::area));
    Map<String, String> answers = scenario.questions().stream()
        .collect(Collectors.toMap(Block.ScenarioQuestion::area, Block.ScenarioQuestion::answer));
    assertAll(
        () -> assertContains(answers.get("API"), "order id"),
        () -> assertContains(answers.get("API"), "never be random"),
        () -> assertContains(answers.get("Data"), "o3 and o4"),
        () -> assertContains(answers.get("Data"), "offset 2"),
        () -> assertContains(answers.get("Architecture"), "payment command topic"),
        () -> assertContains(answers.get("Architecture"), "read_committed"));
    assertContains(section("design-scenario").intro(), "Same prompt for every reader");
  }

  @Test
  void notes_on_latency_recoverable_commits_and_flink() {
    assertContains(block("note-commit-latency", Block.Note.class).body(), "up to a minute");
    assertContains(block("note-recoverable-commit", Block.Note.class).body(), "idempotent");
    assertContains(block("note-flink-two-phase", Block.Note.class).body(), "committer");
  }

  @Test
  void sandbox_runs_both_demos_and_asks_the_pitfalls_exercise() {
    assertEquals("sink-demo", block("run-sink-demo", Block.Snippet.class).snippet());
    assertEquals("txn-dedupe-demo", block("run-txn-dedupe-demo", Block.Snippet.class).snippet());
    Block.Exercise exercise = block("pitfalls-exercise", Block.Exercise.class);
    assertEquals("sink-demo", exercise.snippet());
    assertContains(exercise.prompt(), "demo's output");
    assertContains(exercise.answer(), "o3 and o4");
    assertContains(exercise.answer(), "offset 2");
    assertFalse(allText.contains("Python"), "the sandbox runs Java; the lesson must not speak of Python output");
  }

  @Test
  void two_phase_sink_flow_runs_1_to_7b_and_branches_on_the_checkpoint() {
    DecisionFlow flow = lesson.flows().stream().filter(f -> f.id().equals("two-phase-sink")).findFirst()
        .orElseThrow(() -> new AssertionError("no flow two-phase-sink"));
    assertEquals(List.of("1", "2", "3", "4", "5", "6", "7a", "7b"), ids(flow.steps(), DecisionFlow.Step::number));
    assertEquals(List.of("Rewindable source offsets", "State matches that cut", "Sink writes open txn",
        "Barrier, sink pre-commits", "Tasks ack the checkpoint", "Checkpoint complete?", "Commit the txn",
        "Abort txn and replay"), ids(flow.steps(), DecisionFlow.Step::label));
    DecisionFlow.Step decision = flow.steps().get(5);
    assertTrue(decision.isDecision());
    Map<String, String> numberById = flow.steps().stream()
        .collect(Collectors.toMap(DecisionFlow.Step::id, DecisionFlow.Step::number));
    assertEquals(List.of("yes -> 7a", "crash -> 7b"),
        ids(decision.next(), n -> n.label() + " -> " + numberById.get(n.to())));
    assertTrue(flow.steps().get(6).next().isEmpty() && flow.steps().get(7).next().isEmpty(), "7a and 7b end the flow");
    for (int i = 0; i < 5; i++) {
      assertEquals(flow.steps().get(i + 1).id(), flow.steps().get(i).next().get(0).to(), "step " + (i + 1) + " leads on");
    }
  }

  @Test
  void architecture_map_holds_every_part_of_the_design_with_readable_layout() {
    LessonMap map = map("architecture");
    List<String> nodeIds = ids(map.nodes(), LessonMap.Node::id);
    for (String required : List.of("source", "operators", "checkpoint-coordinator", "checkpoint-storage", "sink",
        "txn-coordinator", "billing-topic", "billing-consumer", "payment-topic", "payment-worker", "payment-api")) {
      assertTrue(nodeIds.contains(required), "architecture map lacks node " + required);
    }
    assertTrue(map.edges().size() >= 13, "at least 13 edges, got " + map.edges().size());
    assertBoxesFitAndDoNotOverlap(map);
  }

  @Test
  void lesson_map_is_the_seed_map() {
    LessonMap map = map("lesson-map");
    assertEquals(List.of("1. Offsets and state in checkpoint n", "2. Open txn, pre-commit on barrier",
        "3. Ack, then commit T_n", "4. Crash: abort T_n and replay"), ids(map.nodes(), LessonMap.Node::label));
    Map<String, String> labelById = map.nodes().stream()
        .collect(Collectors.toMap(LessonMap.Node::id, n -> n.label().substring(0, 1)));
    assertEquals(List.of("1->2", "2->3", "2->4"),
        ids(map.edges(), e -> labelById.get(e.from()) + "->" + labelById.get(e.to())));
    assertBoxesFitAndDoNotOverlap(map);
  }

  @Test
  void key_facts_are_in_the_lesson_text() {
    List<String> missing = new ArrayList<>();
    for (String fact : List.of("sendOffsetsToTransaction", "transactional.id", "read_committed", "read_uncommitted",
        "exactly_once_v2", "2.5 or newer", "transaction.timeout.ms", "transaction.max.timeout.ms", "15 minutes",
        "60 seconds", "initTransactions", "DeliveryGuarantee.EXACTLY_ONCE", "one Kafka transaction per checkpoint",
        "foreachBatch", "idempotency key", "transactional outbox", "exactly-once CDC", "Kinesis sequence numbers",
        "rows=7 sum=220", "6 records sum=170", "4 records sum=100", "e1@90", "seen-set size at end: 1")) {
      if (!allText.contains(fact)) missing.add(fact);
    }
    assertEquals(List.of(), missing, "facts missing from the lesson");
  }

  // ---------------------------------------------------------------- helpers

  private static void assertBoxesFitAndDoNotOverlap(LessonMap map) {
    int w = 180, h = 56;
    for (LessonMap.Node n : map.nodes()) {
      assertTrue(n.x() - w / 2 >= 0 && n.x() + w / 2 <= map.width() && n.y() - h / 2 >= 0 && n.y() + h / 2 <= map.height(),
          "node " + n.id() + " sticks out of the " + map.width() + "x" + map.height() + " canvas");
      for (LessonMap.Node m : map.nodes()) {
        if (n != m && Math.abs(n.x() - m.x()) < w + 20 && Math.abs(n.y() - m.y()) < h + 20) {
          fail("nodes " + n.id() + " and " + m.id() + " overlap or touch");
        }
      }
    }
  }

  private static void assertContains(String text, String part) {
    assertTrue(text != null && text.contains(part), "expected to find \"" + part + "\" in: " + text);
  }

  private static <T> List<String> ids(List<T> items, Function<T, String> key) {
    return items.stream().map(key).toList();
  }

  private static List<String> firstCells(Block.Table table) {
    return table.rows().stream().map(r -> r.cells().get(0)).toList();
  }

  private static String cell(Block.Table table, String rowId, int column) {
    return table.rows().stream().filter(r -> r.id().equals(rowId)).findFirst()
        .orElseThrow(() -> new AssertionError("table " + table.id() + " has no row " + rowId)).cells().get(column);
  }

  private static Block.Question item(Block.Questions questions, String id) {
    return questions.items().stream().filter(q -> q.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no question " + id));
  }

  private static Block.Questions questions(String style) {
    return lesson.sections().stream().flatMap(s -> s.blocks().stream())
        .filter(b -> b instanceof Block.Questions q && q.style().id().equals(style)).map(b -> (Block.Questions) b)
        .findFirst().orElseThrow(() -> new AssertionError("no " + style + " questions block"));
  }

  private static Section section(String id) {
    return lesson.sections().stream().filter(s -> s.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no section " + id));
  }

  private static <B extends Block> B block(String id, Class<B> kind) {
    Block found = lesson.sections().stream().flatMap(s -> s.blocks().stream()).filter(b -> b.id().equals(id))
        .findFirst().orElseThrow(() -> new AssertionError("no block " + id));
    if (!kind.isInstance(found)) throw new AssertionError("block " + id + " is a " + found.getClass().getSimpleName());
    return kind.cast(found);
  }

  private static LessonMap map(String id) {
    return lesson.maps().stream().filter(m -> m.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no map " + id));
  }
}
