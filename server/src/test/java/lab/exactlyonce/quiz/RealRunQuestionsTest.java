package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The quiz's questions about real runs: built from the recorded figures in {@code lessons/exactly-once/real-runs.yaml},
 * with wrong options from the other readers and settings, and a file with a bad entry stops the server.
 */
class RealRunQuestionsTest {
  private static final Path LESSONS = Path.of("lessons");
  private static final String RECORDED = read(LESSONS.resolve("exactly-once").resolve(RecordedRuns.FILE_NAME));

  private static List<Question> realRunQuestions(Path lessons) {
    return QuestionBankLintTest.load(lessons, Path.of("snippets"), "exactly-once").questions().stream()
        .filter(q -> q.id().contains("/real-")).toList();
  }

  private static Question question(List<Question> questions, String id) {
    return questions.stream().filter(q -> q.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no question " + id + " in " + questions.stream().map(Question::id).toList()));
  }

  @Test
  void the_uncommitted_reader_of_the_seeds_crash_counts_the_aborted_transactions_records_too() {
    Question q = question(realRunQuestions(LESSONS), "exactly-once/run-sink-demo/real-defaults-read_uncommitted-records");
    assertEquals(Question.Kind.CHOICE, q.kind());
    assertEquals("7", q.expected());
    assertTrue(q.options().contains("5"), "the read_committed reader's count, for a candidate who mixed the readers up: " + q.options());
    assertEquals(4, q.options().size(), q.options().toString());
    assertTrue(q.prompt().contains("isolation.level=read_uncommitted"), q.prompt());
    assertTrue(q.detail().contains("Kafka 4.2.0") && q.detail().contains("Flink 2.2.0") && q.detail().contains("real run"), q.detail());
    assertTrue(q.detail().contains("`CHECKPOINT_AFTER` = 2, `CRASH_AFTER` = 4, `CRASH_BEFORE_COMPLETE` off and"
        + " `CRASH_BEFORE_COMMIT` off"), q.detail());
    assertTrue(q.detail().contains("The job checks for the crash before it takes the checkpoint at the same record"),
        "the sink demo's predict rules, which the answer depends on: " + q.detail());
    assertTrue(q.explanation().contains("aborted transaction's records stay in the log")
        && q.explanation().contains("The 2 records (worth 70) that recovery replayed are there twice"), q.explanation());
    assertEquals("/lessons/exactly-once#sandbox/sink-demo", q.link());
  }

  @Test
  void every_reader_and_figure_of_every_recorded_setting_is_asked_with_options_only_the_recordings_gave() {
    List<Question> questions = realRunQuestions(LESSONS);
    assertEquals(5 * 3 * 2 + 2, questions.size(), "five settings of the seed's crash, three readers, two figures each;"
        + " fencing and the timeout gotcha");
    Set<String> records = Set.of("5", "6", "7", "8");
    Set<String> sums = Set.of("150", "180", "190", "210", "220");
    for (Question q : questions) {
      if (q.id().endsWith("-error")) continue;
      Set<String> recorded = q.id().endsWith("-records") ? records : sums;
      assertTrue(recorded.containsAll(q.options()) && q.options().size() >= 3, q.id() + ": " + q.options());
    }
    Question beforeCommit = question(questions, "exactly-once/run-sink-demo/real-before-commit-at_least_once-records");
    assertEquals("5", beforeCommit.expected());
    assertTrue(beforeCommit.detail().contains("On the real engines that crash cannot come before the commit: Flink tells"
        + " the sink's committer that the checkpoint completed before it tells the operator that crashes, so the commit"
        + " happens first."), "the simulation's rules, then what the real engines did: " + beforeCommit.detail());
    assertTrue(question(questions, "exactly-once/run-sink-demo/real-defaults-read_committed-sum").detail()
        .contains("The job checks for the crash") && !question(questions, "exactly-once/run-sink-demo/real-defaults-read_committed-sum")
        .detail().contains("On the real engines that crash"), "only a run with CRASH_BEFORE_COMMIT on says it");
    assertEquals("210", question(questions, "exactly-once/run-sink-demo/real-before-complete-read_uncommitted-sum").expected());
    assertEquals("150", question(questions, "exactly-once/run-sink-demo/real-crash-after-3-read_committed-sum").expected());
    assertEquals(questions.size(), new HashSet<>(questions.stream().map(Question::id).toList()).size(), "ids are unique");
    assertEquals(questions, realRunQuestions(LESSONS), "the same file gives the same questions, options and order");
  }

  /**
   * Fencing and the gotcha ask what the broker answered, among other messages Kafka sends about transactions: no
   * option can be ruled out by the prompt or by belonging to the other run, as the exceptions' classes could.
   */
  @Test
  void fencing_and_the_timeout_gotcha_ask_for_the_brokers_message_among_other_transaction_errors() {
    List<Question> questions = realRunQuestions(LESSONS);
    String oldEpoch = "Producer attempted to produce with an old epoch.";
    String tooLong = "The transaction timeout is larger than the maximum value allowed by the broker (as configured by"
        + " transaction.max.timeout.ms).";
    String concurrent = "The producer attempted to update a transaction while another concurrent operation on the same"
        + " transaction was ongoing.";
    Question fencing = question(questions, "exactly-once/L5/real-fencing-error");
    assertEquals(oldEpoch, fencing.expected());
    assertEquals(Set.of(oldEpoch, concurrent, "Transactional Id authorization failed.", tooLong), Set.copyOf(fencing.options()));
    assertEquals("What does the broker answer the stalled producer's send?", fencing.prompt());
    assertTrue(fencing.explanation().contains("InvalidProducerEpochException (org.apache.kafka.common.errors.InvalidProducerEpochException)")
        && fencing.explanation().contains("old epoch") && fencing.explanation().contains("Kafka 4.2.0"), fencing.explanation());
    assertTrue(fencing.detail().contains("Kafka 4.2.0,") && !fencing.detail().contains("Flink"), "plain Kafka clients: " + fencing.detail());
    assertEquals("/lessons/exactly-once#qa/L5", fencing.link());

    Question gotcha = question(questions, "exactly-once/txn-timeouts-note/real-timeout-gotcha-error");
    assertEquals(tooLong, gotcha.expected());
    assertEquals(Set.of(tooLong, concurrent, "There is a newer producer with the same transactionalId which fences the current one.",
        "The server encountered an error with the transaction. The client can abort the transaction to continue using this"
            + " transactional ID."), Set.copyOf(gotcha.options()));
    assertTrue(gotcha.detail().contains("built with the connector's defaults") && gotcha.detail().contains("Flink 2.2.0")
        && !gotcha.detail().contains("timeout"), "the detail does not name the setting the answer is about: " + gotcha.detail());
    assertTrue(gotcha.explanation().contains("Flink wraps that in JobException")
        && gotcha.explanation().contains("The remedy: set the sink's transaction.timeout.ms to 15 minutes or less"),
        gotcha.explanation());
  }

  @Test
  void the_questions_can_be_pushed_to_a_live_class() {
    List<Question> questions = realRunQuestions(LESSONS);
    Map<Question.Kind, Long> kinds = questions.stream().collect(Collectors.groupingBy(Question::kind, Collectors.counting()));
    assertEquals(Map.of(Question.Kind.CHOICE, (long) questions.size()), kinds, "choice questions, which LiveBank pushes");
  }

  @Test
  void the_engine_labs_test_prints_figures_in_the_files_own_layout() {
    String body = RECORDED.lines().dropWhile(line -> line.startsWith("#")).map(line -> line + "\n").collect(Collectors.joining());
    assertEquals(body, RecordedRunFile.bundled().recorded(), "what EngineLabIT prints when the engines differ can be pasted in");
  }

  private static List<Question> outboxQuestions(Path lessons) {
    return QuestionBankLintTest.load(lessons, Path.of("snippets"), "outbox").questions().stream()
        .filter(q -> q.id().contains("/real-")).toList();
  }

  @Test
  void the_outbox_lesson_asks_what_the_real_broker_held_and_what_each_consumer_charged() {
    List<Question> questions = outboxQuestions(LESSONS);
    assertEquals(6 * 3 * 3, questions.size(), "six settings, three consumers, three figures each: "
        + questions.stream().map(Question::id).toList());
    Question cdc = question(questions, "outbox/ox-outbox-demo/real-relay-cdc-outbox-charges");
    assertEquals("8", cdc.expected());
    assertTrue(cdc.options().contains("5"), "the inbox consumer's charges, for a candidate who mixed them up: " + cdc.options());
    assertEquals("How many charges does the consumer of the payments topic without an inbox write?", cdc.prompt());
    assertTrue(cdc.detail().contains("PostgreSQL 14.22 and Kafka 4.2.0") && cdc.detail().contains("Debezium 3.6.1")
        && cdc.detail().contains("`CRASH_POINT` = 2, `CRASH_AT` = 3, `CDC` = true and `INBOX_TTL` = 10")
        && cdc.detail().contains("CRASH_POINT 1 kills the order service"), cdc.detail());
    assertTrue(cdc.explanation().contains("Outbox topic=8 charges=8 sum=210 DUPLICATES o1 o2 o3"), cdc.explanation());
    assertEquals("/lessons/outbox#sandbox/outbox-demo", cdc.link());
    assertEquals("4", question(questions, "outbox/ox-outbox-demo/real-service-crash-dualwrite-topic").expected());
    assertEquals("170", question(questions, "outbox/ox-outbox-demo/real-consumer-inbox-ttl-1-outbox-inbox-sum").expected());
    assertTrue(question(questions, "outbox/ox-outbox-demo/real-relay-polling-outbox-sum").detail()
        .contains("A polling relay selects the unsent outbox rows"), "the polling setting names its relay");
  }

  @Test
  void the_outbox_groups_test_prints_figures_in_the_files_own_layout() {
    String recorded = read(LESSONS.resolve("outbox").resolve(RecordedRuns.FILE_NAME));
    String body = recorded.lines().dropWhile(line -> line.startsWith("#")).map(line -> line + "\n").collect(Collectors.joining());
    assertEquals(body, RecordedRunFile.bundled("outbox").recorded(), "what EngineLabIT prints can be pasted in");
  }

  static Stream<Arguments> badOutboxEntries() {
    String file = "lessons/outbox/real-runs.yaml:";
    return Stream.of(
        arguments("a consumer without its topic's records", "DualWrite: {records: 5, sum: 150, topic: 5}",
            "DualWrite: {records: 5, sum: 150}",
            file + "16: runs[0].readers.DualWrite: needs 'topic', the records its topic held"),
        arguments("the printed lines left out", "    lines:\n      - \"Orders committed=5 sum=150\"\n"
                + "      - \"DualWrite topic=5 charges=5 sum=150 OK\"\n"
                + "      - \"Outbox topic=6 charges=6 sum=180 DUPLICATES o3\"\n"
                + "      - \"Outbox+Inbox topic=6 charges=5 sum=150 OK\"\n", "",
            file + "11: runs[0].lines: scenario 'outbox-crash' needs the lines the run printed"),
        arguments("a reader of the first lesson", "      DualWrite: {records: 5, sum: 150, topic: 5}\n",
            "      read_committed: {records: 5, sum: 150, topic: 5}\n",
            file + "16: runs[0].readers.read_committed: must be one of DualWrite, Outbox, Outbox+Inbox"),
        arguments("an engine no run is on", "  kafka: 4.2.0\n", "  kafka: 4.2.0\n  flink: 2.2.0\n",
            file + "8: engines.flink: no run here is on flink; leave it out"),
        arguments("an engine missing", "  debezium: 3.6.1\n", "",
            file + "6: engines: missing required field 'debezium'"),
        arguments("a knob out of its range", "CRASH_POINT: 2, CRASH_AT: 3, CDC: false", "CRASH_POINT: 4, CRASH_AT: 3, CDC: false",
            file + "14: runs[0].knobs.CRASH_POINT: the knob must be from 1 to 3, got 4"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badOutboxEntries")
  void a_bad_outbox_entry_stops_the_server_with_one_line_naming_it(String what, String from, String to, String problem,
                                                                  @TempDir Path dir) throws IOException {
    String recorded = read(LESSONS.resolve("outbox").resolve(RecordedRuns.FILE_NAME));
    assertTrue(recorded.contains(from), what + ": the bundled file has no '" + from + "'");
    Path lessons = dir.resolve("lessons");
    Files.createDirectories(lessons.resolve("outbox"));
    for (String name : List.of("lesson.yaml", WrittenQuestions.FILE_NAME)) {
      Files.copy(LESSONS.resolve("outbox").resolve(name), lessons.resolve("outbox").resolve(name));
    }
    Files.writeString(lessons.resolve("outbox").resolve(RecordedRuns.FILE_NAME), recorded.replaceFirst(
        Pattern.quote(from), Matcher.quoteReplacement(to)));
    LessonFormatException refused = assertThrows(LessonFormatException.class, () -> outboxQuestions(lessons));
    assertEquals(problem, refused.getMessage(), what);
  }

  static Stream<Arguments> badEntries() {
    String file = "lessons/exactly-once/real-runs.yaml:";
    return Stream.of(
        arguments("an unknown scenario", "scenario: fencing", "scenario: fenced",
            file + "50: runs[5].scenario: must be one of seed-crash, fencing, timeout-gotcha, outbox-crash, got 'fenced'"),
        arguments("a knob out of its range", "CHECKPOINT_AFTER: 3, CRASH_AFTER: 4", "CHECKPOINT_AFTER: 9, CRASH_AFTER: 4",
            file + "19: runs[1].knobs.CHECKPOINT_AFTER: the knob must be from 1 to 5, got 9"),
        arguments("a knob left out", "CHECKPOINT_AFTER: 3, CRASH_AFTER: 4, ", "CHECKPOINT_AFTER: 3, ",
            file + "19: runs[1].knobs: a seed-crash run names every knob: CHECKPOINT_AFTER, CRASH_AFTER, CRASH_BEFORE_COMPLETE,"
                + " CRASH_BEFORE_COMMIT; got CHECKPOINT_AFTER, CRASH_BEFORE_COMPLETE, CRASH_BEFORE_COMMIT"),
        arguments("knobs on a scenario without any", "    scenario: fencing\n", "    scenario: fencing\n    knobs: {CRASH_AFTER: 2}\n",
            file + "51: runs[5].knobs: scenario 'fencing' takes no knobs"),
        arguments("a reader missing from the seed's crash", "      at_least_once: {records: 6, sum: 190}\n", "",
            file + "20: runs[1].readers: a seed-crash run has every reader: read_committed, read_uncommitted, at_least_once"),
        arguments("a figure missing", "read_uncommitted: {records: 6, sum: 180}", "read_uncommitted: {records: 6}",
            file + "30: runs[2].readers.read_uncommitted: needs 'records' and 'sum'"),
        arguments("an exception without its package", "[org.apache.kafka.common.errors.InvalidProducerEpochException]",
            "[InvalidProducerEpochException]",
            file + "54: runs[5].errors[0]: must be a class name with its package, got 'InvalidProducerEpochException'"),
        arguments("the seed's crash about a block that is no snippet", "    about: run-sink-demo\n    scenario: seed-crash\n"
                + "    knobs: {CHECKPOINT_AFTER: 3,", "    about: L5\n    scenario: seed-crash\n    knobs: {CHECKPOINT_AFTER: 3,",
            file + "17: runs[1].about: a seed-crash run is about the snippet block whose knobs it takes; 'L5' is no snippet block"),
        arguments("an item the lesson lacks", "about: txn-timeouts-note", "about: txn-timeouts",
            file + "57: runs[6].about: no item 'txn-timeouts' in lesson 'exactly-once'"),
        arguments("a run that raises an exception without the broker's message", "    message: \"Producer attempted", "    mess: \"Producer attempted",
            file + "55: runs[5].mess: unknown field 'mess'"),
        arguments("the broker's message left out", "    message: \"Producer attempted to produce with an old epoch.\"\n", "",
            file + "48: runs[5].message: scenario 'fencing' needs the broker's message its question asks about"),
        arguments("two runs of one setting", "CHECKPOINT_AFTER: 2, CRASH_AFTER: 3,", "CHECKPOINT_AFTER: 2, CRASH_AFTER: 4,",
            file + "24: runs[2]: records the same scenario and knobs as runs[0]"),
        arguments("a run id used twice", "id: crash-after-3", "id: defaults", file + "24: runs[2].id: run id 'defaults' is already used"),
        arguments("a version that is none", "kafka: 4.2.0", "kafka: latest", file + "5: engines.kafka: must be a version such as 4.2.0, got 'latest'"),
        arguments("an unknown field", "    about: L5\n", "    about: L5\n    colour: red\n",
            file + "50: runs[5].colour: unknown field 'colour'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badEntries")
  void a_bad_entry_stops_the_server_with_one_line_naming_it(String what, String from, String to, String problem,
                                                           @TempDir Path dir) throws IOException {
    assertTrue(RECORDED.contains(from), what + ": the bundled file has no '" + from + "'");
    Path lessons = dir.resolve("lessons");
    Files.createDirectories(lessons.resolve("exactly-once"));
    for (String name : List.of("lesson.yaml", WrittenQuestions.FILE_NAME)) {
      Files.copy(LESSONS.resolve("exactly-once").resolve(name), lessons.resolve("exactly-once").resolve(name));
    }
    Files.writeString(lessons.resolve("exactly-once").resolve(RecordedRuns.FILE_NAME), RECORDED.replaceFirst(
        Pattern.quote(from), Matcher.quoteReplacement(to)));
    LessonFormatException refused = assertThrows(LessonFormatException.class, () -> realRunQuestions(lessons));
    assertEquals(problem, refused.getMessage(), what);
  }

  private static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
