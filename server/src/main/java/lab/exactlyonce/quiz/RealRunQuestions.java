package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Lesson;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Choice questions about what the real engines did ({@link RecordedRuns}): for each recorded setting of the seed's
 * crash, how many records each reader counts and what they sum to; for fencing and the timeout gotcha, what the
 * broker answered; for each recorded setting of the outbox demo's crash, what each payment consumer's topic held and
 * what it charged. The wrong options are the figures the other readers and the other recorded settings gave (what a
 * candidate who mixed up the readers or the settings would say), and other messages Kafka sends about transactions.
 * Ids: {@code <lesson>/<about>/real-<run>-<reader>-records}, {@code ...-sum}, {@code <lesson>/<about>/real-<run>-error}
 * and, for the outbox, {@code <lesson>/<about>/real-<run>-<consumer>-topic}, {@code ...-charges} and {@code ...-sum}.
 */
final class RealRunQuestions {
  private static final int MAX_WRONG = 3;

  private RealRunQuestions() {}

  /**
   * @param rules the predict rules of a snippet, by snippet id: the seed's crash follows the sink demo's loop, so its
   *              questions state the same rules
   * @param messages wrong options for a run's message question, by run id (null: none given)
   */
  static List<Question> build(Lesson lesson, RecordedRuns recorded, Function<String, String> rules,
                              Function<String, List<String>> messages) {
    List<RecordedRuns.Run> seeds = recorded.runs().stream().filter(r -> r.scenario().equals(RecordedRuns.SEED_CRASH)).toList();
    List<RecordedRuns.Run> outboxes = recorded.runs().stream()
        .filter(r -> r.scenario().equals(RecordedRuns.OUTBOX_CRASH)).toList();
    List<Question> out = new ArrayList<>();
    for (RecordedRuns.Run run : recorded.runs()) {
      if (run.scenario().equals(RecordedRuns.OUTBOX_CRASH)) {
        String snippet = snippetOf(lesson, run);
        for (String reader : run.readers().keySet()) {
          for (Figure figure : Figure.OF_A_CONSUMER) {
            outbox(lesson, recorded, run, reader, figure, outboxes, rules.apply(snippet)).ifPresent(out::add);
          }
        }
      } else if (run.scenario().equals(RecordedRuns.SEED_CRASH)) {
        String snippet = snippetOf(lesson, run);
        for (String reader : run.readers().keySet()) {
          for (Figure figure : Figure.OF_A_READER) {
            question(lesson, recorded, run, reader, figure, seeds, rules.apply(snippet)).ifPresent(out::add);
          }
        }
      } else {
        error(lesson, recorded, run, messages).ifPresent(out::add);
      }
    }
    return List.copyOf(out);
  }

  /**
   * A figure asked about a reader of a recorded run: records and sum for each reader of the seed's crash; the topic's
   * records, the charges and their sum for each payment consumer of the outbox demo's crash.
   */
  enum Figure {
    RECORDS("records", "How many records does %s count?"),
    SUM("sum", "What is the sum of the amounts that %s reads?"),
    TOPIC("topic", "How many records does the topic that %s reads hold on the broker at the end?"),
    CHARGES("charges", "How many charges does %s write?"),
    CHARGED("sum", "What is the sum of the amounts that %s charges?");

    static final List<Figure> OF_A_READER = List.of(RECORDS, SUM);
    static final List<Figure> OF_A_CONSUMER = List.of(TOPIC, CHARGES, CHARGED);

    final String id;
    final String question;

    Figure(String id, String question) {
      this.id = id;
      this.question = question;
    }

    int of(RecordedRuns.Figures figures) {
      return switch (this) {
        case RECORDS, CHARGES -> figures.records();
        case SUM, CHARGED -> figures.sum();
        case TOPIC -> figures.topic();
      };
    }
  }

  private static Optional<Question> outbox(Lesson lesson, RecordedRuns recorded, RecordedRuns.Run run, String reader,
                                           Figure figure, List<RecordedRuns.Run> outboxes, String rules) {
    String id = lesson.id() + "/" + run.about() + "/real-" + run.id() + "-" + slug(reader) + "-" + figure.id;
    String right = String.valueOf(figure.of(run.readers().get(reader)));
    List<String> sameRun = new ArrayList<>();
    run.readers().forEach((other, figures) -> sameRun.add(String.valueOf(figure.of(figures))));
    List<String> otherRuns = new ArrayList<>();
    for (RecordedRuns.Run other : outboxes) {
      if (other != run) other.readers().values().forEach(f -> otherRuns.add(String.valueOf(figure.of(f))));
    }
    List<String> wrong = wrong(id, right, sameRun, otherRuns);
    if (wrong.size() < 2) return Optional.empty(); // a guess would score a half
    QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, right, wrong);
    List<String> parts = new ArrayList<>();
    run.knobs().forEach((knob, value) -> parts.add("`" + knob + "` = " + value));
    String relay = Boolean.TRUE.equals(run.knobs().get("CDC"))
        ? "Debezium " + recorded.debezium() + "'s PostgreSQL connector tails the database log and carries each"
          + " outbox row"
        : "A polling relay selects the unsent outbox rows, publishes each and marks it sent";
    String detail = "Recorded from a real run on PostgreSQL " + recorded.postgresql() + " and Kafka " + recorded.kafka()
        + ", in the Sandbox tab's engine lab. An order service commits five orders, o1 to o5 worth 10, 20, 30, 40 and"
        + " 50, each with its outbox row in one transaction, and also publishes each order itself to a topic of its"
        + " own (the dual write). " + relay + " to the payments topic. Three payment consumers charge what they read:"
        + " one on the dual write's topic, one on the payments topic, and one on the payments topic with an inbox. The"
        + " run has " + String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1)
        + ". " + rules.strip();
    String explanation = "On PostgreSQL " + recorded.postgresql() + ", Kafka " + recorded.kafka()
        + (Boolean.TRUE.equals(run.knobs().get("CDC")) ? " and Debezium " + recorded.debezium() : "")
        + " the run printed: " + String.join("; ", run.lines()) + ". The real engines printed the same lines as the"
        + " outbox demo's simulation for these knobs.";
    return Optional.of(new Question(id, lesson.id(), run.about(), Question.Kind.CHOICE, topic(lesson, run),
        String.format(figure.question, consumerName(reader)), detail, choice.options(), List.of(choice.answer()),
        explanation, "/lessons/" + lesson.id() + "#sandbox/" + snippetOf(lesson, run)));
  }

  /** A reader's name as a question id carries it. */
  private static String slug(String reader) {
    return reader.toLowerCase(Locale.ROOT).replace('+', '-');
  }

  private static String consumerName(String reader) {
    return switch (reader) {
      case "DualWrite" -> "the consumer of the dual write's topic";
      case "Outbox" -> "the consumer of the payments topic without an inbox";
      default -> "the consumer of the payments topic with an inbox";
    };
  }

  private static Optional<Question> question(Lesson lesson, RecordedRuns recorded, RecordedRuns.Run run, String reader,
                                             Figure figure, List<RecordedRuns.Run> seeds, String rules) {
    String id = lesson.id() + "/" + run.about() + "/real-" + run.id() + "-" + reader + "-" + figure.id;
    String right = String.valueOf(figure.of(run.readers().get(reader)));
    // Another reader of the same run first (the reader mixed up), then this figure in the other settings.
    List<String> sameRun = new ArrayList<>();
    run.readers().forEach((other, figures) -> sameRun.add(String.valueOf(figure.of(figures))));
    List<String> otherRuns = new ArrayList<>();
    for (RecordedRuns.Run other : seeds) {
      if (other != run) other.readers().values().forEach(f -> otherRuns.add(String.valueOf(figure.of(f))));
    }
    List<String> wrong = wrong(id, right, sameRun, otherRuns);
    if (wrong.size() < 2) return Optional.empty(); // a guess would score a half
    QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, right, wrong);
    String detail = engines(recorded, true) + " Five orders, o1 to o5 worth 10, 20, 30, 40 and 50, go through one Flink job"
        + " into an exactly-once Kafka sink (topic `billing`, one transaction per checkpoint) and an at-least-once one"
        + " (topic `billing-alo`, no transactions). The job runs with " + setting(run) + ". " + rules.strip()
        + (Boolean.TRUE.equals(run.knobs().get("CRASH_BEFORE_COMMIT"))
            ? " On the real engines that crash cannot come before the commit: Flink tells the sink's committer that"
              + " the checkpoint completed before it tells the operator that crashes, so the commit happens first."
            : "")
        + " After the crash Flink restarts the job, which runs to the end of the input, where a last checkpoint"
        + " commits what is still open. Then each reader reads its topic from the start.";
    return Optional.of(new Question(id, lesson.id(), run.about(), Question.Kind.CHOICE, topic(lesson, run),
        String.format(figure.question, readerName(reader)), detail, choice.options(), List.of(choice.answer()),
        explanation(recorded, run, reader), "/lessons/" + lesson.id() + "#sandbox/" + snippetOf(lesson, run)));
  }

  private static String snippetOf(Lesson lesson, RecordedRuns.Run run) {
    return RecordedRuns.snippetBlock(lesson, run.about()).orElseThrow().snippet();
  }

  /** The distinct wrong values: first those of {@code first}, then up to {@link #MAX_WRONG} in all from the rest. */
  private static List<String> wrong(String id, String right, List<String> first, List<String> rest) {
    Set<String> out = new LinkedHashSet<>(first);
    List<String> more = new ArrayList<>(new LinkedHashSet<>(rest));
    Collections.shuffle(more, new Random(QuestionGenerator.seed(id + "#pool")));
    out.addAll(more);
    out.remove(right);
    return new ArrayList<>(out).subList(0, Math.min(MAX_WRONG, out.size()));
  }

  /** Where the figures come from: the engines that ran, with their versions. */
  private static String engines(RecordedRuns recorded, boolean flink) {
    return "Recorded from a real run on Kafka " + recorded.kafka()
        + (flink ? " and a Flink " + recorded.flink() + " MiniCluster" : "") + ", in the Sandbox tab's engine lab.";
  }

  /** "CHECKPOINT_AFTER = 2, CRASH_AFTER = 4, CRASH_BEFORE_COMPLETE off and CRASH_BEFORE_COMMIT off". */
  static String setting(RecordedRuns.Run run) {
    List<String> parts = new ArrayList<>();
    run.knobs().forEach((knob, value) -> parts.add("`" + knob + "` " + (value instanceof Boolean on ? (on ? "on" : "off") : "= " + value)));
    return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1)
        + " (a checkpoint after every `CHECKPOINT_AFTER` records; the job dies right after writing record `CRASH_AFTER`)";
  }

  private static String readerName(String reader) {
    return switch (reader) {
      case "read_committed" -> "a consumer with `isolation.level=read_committed` on the exactly-once topic";
      case "read_uncommitted" -> "a consumer with `isolation.level=read_uncommitted` on the exactly-once topic";
      default -> "a consumer of the at-least-once topic";
    };
  }

  /** Ties the figure to the mechanism: what the reader skips or keeps of the crashed attempt's writes. */
  private static String explanation(RecordedRuns recorded, RecordedRuns.Run run, String reader) {
    RecordedRuns.Figures committed = run.readers().get("read_committed");
    RecordedRuns.Figures figures = run.readers().get(reader);
    int extra = figures.records() - committed.records();
    int extraSum = figures.sum() - committed.sum();
    StringBuilder out = new StringBuilder("On Kafka ").append(recorded.kafka()).append(" and Flink ")
        .append(recorded.flink()).append(" this reader read ").append(figures.records()).append(" records summing to ")
        .append(figures.sum()).append(". ");
    if (reader.equals("read_committed")) {
      out.append("It reads committed transactions only, and those hold each order once: what the crashed attempt wrote"
          + " after the checkpoint that recovery restored was aborted, and the replay wrote it again in transactions"
          + " that committed.");
    } else {
      out.append(reader.equals("read_uncommitted")
          ? "It reads every record the exactly-once sink wrote, committed or not: an aborted transaction's records stay"
            + " in the log, only marked aborted. "
          : "The at-least-once sink writes without transactions, so its topic keeps everything it was sent. ");
      out.append(extra == 0
          ? "Nothing the job wrote before the crash lay past the checkpoint recovery restored, so the replay wrote no"
            + " record a second time."
          : (extra == 1 ? "The record" : "The " + extra + " records") + " (worth " + extraSum + ") that recovery replayed "
            + (extra == 1 ? "is" : "are") + " there twice: once from the crashed attempt and once from the replay.");
    }
    if (Boolean.TRUE.equals(run.knobs().get("CRASH_BEFORE_COMPLETE"))) {
      out.append(" The checkpoint the job died in had pre-committed its transaction but never completed, so recovery"
          + " aborted that transaction and replayed from the last checkpoint that had completed, or from the start when none"
          + " had.");
    } else if (Boolean.TRUE.equals(run.knobs().get("CRASH_BEFORE_COMMIT"))) {
      out.append(" On the real engines Flink told the sink's committer that the checkpoint completed before the crash"
          + " came, so the commit had happened already; recovery's commit of it again changes nothing.");
    }
    return out.toString();
  }

  /**
   * What the broker answers in fencing or the timeout gotcha: the message of the run's first exception. The wrong
   * options are other messages Kafka sends about transactions, from the lesson's {@code questions.yaml}, or else
   * the other recorded runs' messages. Asked as the message, not the exception's class: the classes of two runs
   * tell each other apart, and the generic {@code KafkaException} says nothing about the cause.
   */
  private static Optional<Question> error(Lesson lesson, RecordedRuns recorded, RecordedRuns.Run run,
                                          Function<String, List<String>> messages) {
    String id = lesson.id() + "/" + run.about() + "/real-" + run.id() + "-error";
    String right = run.message();
    List<String> given = messages.apply(run.id());
    List<String> others = recorded.runs().stream().map(RecordedRuns.Run::message).filter(m -> !m.isEmpty()).toList();
    List<String> wrong = wrong(id, right, given == null ? others : given, List.of());
    if (wrong.size() < 2) return Optional.empty();
    QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, right, wrong);
    boolean fencing = run.scenario().equals(RecordedRuns.FENCING);
    String prompt = fencing ? "What does the broker answer the stalled producer's send?"
        : "What does Kafka answer when the sink's producer registers its transactional id?";
    String detail = fencing
        ? engines(recorded, false) + " Two plain Kafka producers share one `transactional.id`. Producer 1 calls"
          + " `initTransactions()`, begins a transaction, writes o1 and stalls. Producer 2, the restarted task, calls"
          + " `initTransactions()` with the same id, writes o1 and commits. Then producer 1 wakes up and sends o2 in"
          + " the transaction it had begun. The answer is the message its send's exception carries."
        : engines(recorded, true) + " A Flink job writes five orders through an exactly-once `KafkaSink` built with"
          + " the connector's defaults (only the delivery guarantee, a transactional id prefix and the topic are set)"
          + " to a Kafka cluster left at its own defaults. The job fails as it starts; the answer is what Kafka told"
          + " the sink's producer.";
    String exception = run.errors().get(0);
    RecordedRuns.Figures committed = run.readers().get("read_committed");
    RecordedRuns.Figures uncommitted = run.readers().get("read_uncommitted");
    String explanation = "On Kafka " + recorded.kafka() + (fencing ? "" : " and Flink " + recorded.flink()) + " the "
        + simpleName(exception) + " (" + exception + ") carried this message. " + (fencing
        ? "Producer 2's initTransactions() raised the epoch of the transactional.id and aborted producer 1's open"
          + " transaction; producer 1's send still carries the old epoch, so the broker refuses it: the zombie is fenced."
          + " No other producer was working on that transaction at the time, and nothing about permissions or"
          + " timeouts changed."
          + (committed != null && uncommitted != null ? " A read_committed consumer then read " + committed.records()
            + " record" + (committed.records() == 1 ? "" : "s") + " (producer 2's o1) and a read_uncommitted one "
            + uncommitted.records() + ", since producer 1's aborted o1 stays in the log." : "")
        : "KafkaSink asks for a transaction.timeout.ms of one hour by default, and a broker's transaction.max.timeout.ms"
          + " is 15 minutes by default, so the broker refuses the producer an id and the job cannot start; Flink wraps"
          + " that in " + (run.errors().size() > 1 ? simpleName(run.errors().get(run.errors().size() - 1)) : "its own exception")
          + ". The remedy: set the sink's transaction.timeout.ms to 15 minutes or less (still above the checkpoint"
          + " interval plus the longest outage), or raise the brokers' transaction.max.timeout.ms. With a timeout"
          + " under the broker's maximum the same job ran"
          + (committed != null ? " and a read_committed consumer read " + committed.records() + " records." : "."));
    return Optional.of(new Question(id, lesson.id(), run.about(), Question.Kind.CHOICE, topic(lesson, run), prompt, detail,
        choice.options(), List.of(choice.answer()), explanation,
        QuestionGenerator.link(lesson, new LessonItems(lesson).find(run.about()).orElseThrow().tab(), run.about())));
  }

  /** A run's questions are in the topic of the lesson item they are about. */
  private static String topic(Lesson lesson, RecordedRuns.Run run) {
    return new LessonItems(lesson).find(run.about()).orElseThrow().topic();
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
