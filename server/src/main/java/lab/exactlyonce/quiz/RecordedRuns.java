package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonFile;
import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.lesson.LessonLoader;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.KnobSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What the engine lab's real engines gave for a few settings of its scenarios, {@code lessons/<id>/real-runs.yaml}:
 * the first lesson's Kafka broker and Flink job, the outbox lesson's PostgreSQL, relay and broker. The quiz asks about
 * them without running the engines (off by default, seconds a run), and the engine lab's integration test runs every
 * entry again and fails when a figure differs. Read and checked at start like the lesson; a problem stops the server
 * with one line naming the file, the field and what is wrong. The format is in {@code lessons/SCHEMA.md}.
 *
 * @param engines the version of each engine the figures come from, by name ({@link #ENGINES} order)
 */
record RecordedRuns(Map<String, String> engines, List<Run> runs) {
  static final String FILE_NAME = "real-runs.yaml";
  static final RecordedRuns NONE = new RecordedRuns(Map.of(), List.of());
  static final String SEED_CRASH = "seed-crash";
  static final String FENCING = "fencing";
  static final String TIMEOUT_GOTCHA = "timeout-gotcha";
  static final String OUTBOX_CRASH = "outbox-crash";
  /** The engines a file may name, in the order it names them. */
  static final List<String> ENGINES = List.of("kafka", "flink", "postgresql", "debezium");
  /** The readers of the seed's crash, in the order the engine lab reports them. */
  static final List<String> READERS = List.of("read_committed", "read_uncommitted", "at_least_once");
  /** The knobs of the seed's crash, which its questions describe. */
  static final List<String> SEED_KNOBS = List.of("CHECKPOINT_AFTER", "CRASH_AFTER", "CRASH_BEFORE_COMPLETE", "CRASH_BEFORE_COMMIT");
  /** The payment consumers of the outbox demo's crash, in the order it prints them. */
  static final List<String> OUTBOX_READERS = List.of("DualWrite", "Outbox", "Outbox+Inbox");
  /** The knobs of the outbox demo's crash. */
  static final List<String> OUTBOX_KNOBS = List.of("CRASH_POINT", "CRASH_AT", "CDC", "INBOX_TTL");

  /**
   * What a scenario's runs hold: its knobs (taken from the {@code about} snippet block), the readers it may report
   * (all of them when {@code everyReader}), the engines it runs on, whether it raises exceptions and whether it prints
   * the lines of its snippet and the broker's records per reader.
   */
  record Shape(String scenario, List<String> knobs, List<String> readers, boolean everyReader, List<String> engines,
               boolean raises, boolean prints) {}

  static final List<Shape> SHAPES = List.of(
      new Shape(SEED_CRASH, SEED_KNOBS, READERS, true, List.of("kafka", "flink"), false, false),
      new Shape(FENCING, List.of(), READERS, false, List.of("kafka"), true, false),
      new Shape(TIMEOUT_GOTCHA, List.of(), READERS, false, List.of("kafka", "flink"), true, false),
      new Shape(OUTBOX_CRASH, OUTBOX_KNOBS, OUTBOX_READERS, true, List.of("kafka", "postgresql", "debezium"), false,
          true));

  private static final Pattern RUN_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
  private static final Pattern VERSION = Pattern.compile("\\d{1,4}(\\.\\d{1,4}){1,3}");
  private static final Pattern CLASS_NAME = Pattern.compile("([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*");

  RecordedRuns {
    engines = Collections.unmodifiableMap(new LinkedHashMap<>(engines));
    runs = List.copyOf(runs);
  }

  String kafka() {
    return engines.getOrDefault("kafka", "");
  }

  String flink() {
    return engines.getOrDefault("flink", "");
  }

  String postgresql() {
    return engines.getOrDefault("postgresql", "");
  }

  String debezium() {
    return engines.getOrDefault("debezium", "");
  }

  static Optional<Shape> shape(String scenario) {
    return SHAPES.stream().filter(s -> s.scenario().equals(scenario)).findFirst();
  }

  /**
   * One recorded run.
   *
   * @param about the lesson item its questions test and link to; for a scenario with knobs, the snippet block whose
   *              knobs it takes
   * @param knobs every knob's value, in its {@link Shape}'s order (empty for the scenarios without knobs)
   * @param readers what each reader saw, in its {@link Shape}'s order
   * @param errors the exception classes the engines raised, the first one first
   * @param message the broker's error message the first exception carries (without the client's own prefix), which
   *                its question asks about; empty where nothing is raised
   * @param lines the lines the run printed as its snippet prints them; empty for the scenarios that print none
   */
  record Run(String id, String about, String scenario, Map<String, Object> knobs, Map<String, Figures> readers,
             List<String> errors, String message, List<String> lines) {
    Run {
      knobs = Collections.unmodifiableMap(new LinkedHashMap<>(knobs));
      readers = Collections.unmodifiableMap(new LinkedHashMap<>(readers));
      errors = List.copyOf(errors);
      message = message == null ? "" : message;
      lines = List.copyOf(lines);
    }
  }

  /**
   * What one reader read: how many records (for a payment consumer, how many charges), the sum of their amounts,
   * and for a payment consumer how many records its topic held on the broker ({@code -1}: not reported).
   */
  record Figures(int records, int sum, int topic) {
    Figures(int records, int sum) {
      this(records, sum, -1);
    }
  }

  /** The file as written. */
  record File(Engines engines, List<Entry> runs) {}

  record Engines(String kafka, String flink, String postgresql, String debezium) {
    String of(String engine) {
      return switch (engine) {
        case "kafka" -> kafka;
        case "flink" -> flink;
        case "postgresql" -> postgresql;
        default -> debezium;
      };
    }
  }

  record Entry(String id, String about, String scenario, Map<String, JsonNode> knobs, Map<String, Count> readers,
               List<String> errors, String message, List<String> lines) {}

  record Count(Integer records, Integer sum, Integer topic) {}

  /**
   * The lesson's recorded runs, or {@link #NONE} when its folder has no {@code real-runs.yaml}.
   *
   * @param knobs a snippet's knobs, by snippet id: a seed-crash run's values must be inside their ranges
   * @param rules the predict rules of a snippet, by snippet id (null: none), which its questions state
   */
  static RecordedRuns load(Path lessonsRoot, Lesson lesson, Function<String, List<Knob>> knobs,
                           Function<String, String> rules) {
    Path path = lessonsRoot.resolve(lesson.id()).resolve(FILE_NAME);
    if (!Files.isRegularFile(path)) return NONE;
    LessonLoader.Parsed<File> parsed = new LessonLoader().read(path, "lessons/" + lesson.id() + "/" + FILE_NAME, File.class);
    File file = parsed.value() == null ? new File(null, null) : parsed.value();
    return new Reader(parsed.file(), lesson, knobs, rules).read(file);
  }

  /** The snippet block of the lesson with this id, if it is one. */
  static Optional<Block.Snippet> snippetBlock(Lesson lesson, String id) {
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Snippet s && s.id().equals(id)) return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** Turns the file into runs, refusing the first problem with the field it is in. */
  private record Reader(LessonFile source, Lesson lesson, Function<String, List<Knob>> knobs,
                        Function<String, String> rules) {
    RecordedRuns read(File file) {
      if (file.engines() == null) throw problem("", "missing required field 'engines'");
      LessonItems items = new LessonItems(lesson);
      List<Run> out = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      Set<String> needed = new HashSet<>();
      Map<String, Integer> settings = new HashMap<>();
      List<Entry> entries = file.runs() == null ? List.of() : file.runs();
      for (int i = 0; i < entries.size(); i++) {
        String at = "runs[" + i + "]";
        Entry e = entries.get(i);
        String id = required(e.id(), at + ".id");
        if (!RUN_ID.matcher(id).matches()) throw problem(at + ".id", "must be lower-case letters, digits or '-', got '" + id + "'");
        if (!ids.add(id)) throw problem(at + ".id", "run id '" + id + "' is already used");
        String about = required(e.about(), at + ".about");
        if (items.find(about).isEmpty()) throw problem(at + ".about", "no item '" + about + "' in lesson '" + lesson.id() + "'");
        String scenario = required(e.scenario(), at + ".scenario");
        Shape shape = shape(scenario).orElseThrow(() -> problem(at + ".scenario", "must be one of "
            + String.join(", ", SHAPES.stream().map(Shape::scenario).toList()) + ", got '" + scenario + "'"));
        needed.addAll(shape.engines());
        Map<String, Object> values;
        if (shape.knobs().isEmpty()) {
          if (e.knobs() != null && !e.knobs().isEmpty()) {
            throw problem(at + ".knobs", "scenario '" + scenario + "' takes no knobs");
          }
          values = Map.of();
        } else {
          values = knobs(at, about, shape, e.knobs());
        }
        Integer same = settings.putIfAbsent(scenario + values, i);
        if (same != null) throw problem(at, "records the same scenario and knobs as runs[" + same + "]");
        Map<String, Figures> readers = readers(at + ".readers", shape, e.readers());
        List<String> errors = e.errors() == null ? List.of() : e.errors().stream().map(s -> s == null ? "" : s.strip()).toList();
        for (int j = 0; j < errors.size(); j++) {
          if (!CLASS_NAME.matcher(errors.get(j)).matches()) {
            throw problem(at + ".errors[" + j + "]", "must be a class name with its package, got '" + errors.get(j) + "'");
          }
        }
        String message = e.message() == null ? "" : e.message().strip();
        String raisesNone = "scenario '" + scenario + "' raises no exception";
        if (!shape.raises() && !errors.isEmpty()) throw problem(at + ".errors", raisesNone);
        if (!shape.raises() && !message.isEmpty()) throw problem(at + ".message", raisesNone);
        if (shape.raises() && errors.isEmpty()) {
          throw problem(at + ".errors", "scenario '" + scenario + "' needs the exceptions the engines raised");
        }
        if (shape.raises() && message.isEmpty()) {
          throw problem(at + ".message", "scenario '" + scenario + "' needs the broker's message its question asks about");
        }
        List<String> lines = e.lines() == null ? List.of()
            : e.lines().stream().map(l -> l == null ? "" : l.strip()).toList();
        if (!shape.prints() && !lines.isEmpty()) {
          throw problem(at + ".lines", "scenario '" + scenario + "' prints no lines");
        }
        if (shape.prints() && lines.isEmpty()) {
          throw problem(at + ".lines", "scenario '" + scenario + "' needs the lines the run printed");
        }
        for (int j = 0; j < lines.size(); j++) {
          if (lines.get(j).isEmpty()) throw problem(at + ".lines[" + j + "]", "must not be empty");
        }
        out.add(new Run(id, about, scenario, values, readers, errors, message, lines));
      }
      Map<String, String> engines = new LinkedHashMap<>();
      for (String engine : ENGINES) {
        String given = file.engines().of(engine);
        if (given == null && !needed.contains(engine)) continue;
        if (given != null && !needed.contains(engine)) {
          throw problem("engines." + engine, "no run here is on " + engine + "; leave it out");
        }
        engines.put(engine, version(given, "engines." + engine));
      }
      return new RecordedRuns(engines, out);
    }

    /** Every knob of the scenario, each inside the range of the {@code about} snippet's knob. */
    private Map<String, Object> knobs(String at, String about, Shape shape, Map<String, JsonNode> given) {
      String scenario = shape.scenario();
      Block.Snippet block = snippetBlock(lesson, about).orElseThrow(() -> problem(at + ".about", "a " + scenario
          + " run is about the snippet block whose knobs it takes; '" + about + "' is no snippet block"));
      if (rules.apply(block.snippet()) == null) {
        throw problem(at + ".about", "snippet '" + block.snippet() + "' has no predict rules in " + WrittenQuestions.FILE_NAME
            + "; its real-run questions state them");
      }
      Map<String, JsonNode> values = given == null ? Map.of() : given;
      if (!values.keySet().equals(Set.copyOf(shape.knobs()))) {
        throw problem(at + ".knobs", "a " + scenario + " run names every knob: " + String.join(", ", shape.knobs())
            + "; got " + (values.isEmpty() ? "none" : String.join(", ", values.keySet())));
      }
      Map<String, Object> out = new LinkedHashMap<>();
      for (String knob : shape.knobs()) {
        Knob declared = knobs.apply(block.snippet()).stream().filter(k -> k.name().equals(knob)).findFirst()
            .orElseThrow(() -> problem(at + ".knobs." + knob, "snippet '" + block.snippet() + "' has no knob '" + knob + "'"));
        try {
          out.put(knob, declared.accept("the knob", values.get(knob)));
        } catch (KnobSettings.Refused refused) {
          throw problem(at + ".knobs." + knob, refused.getMessage());
        }
      }
      return out;
    }

    private Map<String, Figures> readers(String at, Shape shape, Map<String, Count> given) {
      if (given == null || given.isEmpty()) throw problem(at, "needs what each reader read");
      for (String reader : given.keySet()) {
        if (!shape.readers().contains(reader)) {
          throw problem(at + "." + reader, "must be one of " + String.join(", ", shape.readers()));
        }
      }
      if (shape.everyReader() && !given.keySet().equals(Set.copyOf(shape.readers()))) {
        throw problem(at, "a " + shape.scenario() + " run has every reader: " + String.join(", ", shape.readers()));
      }
      Map<String, Figures> out = new LinkedHashMap<>();
      for (String reader : shape.readers()) {
        if (!given.containsKey(reader)) continue;
        Count count = given.get(reader);
        String field = at + "." + reader;
        if (count == null || count.records() == null || count.sum() == null) {
          throw problem(field, "needs 'records' and 'sum'");
        }
        if (shape.prints() && count.topic() == null) throw problem(field, "needs 'topic', the records its topic held");
        if (!shape.prints() && count.topic() != null) {
          throw problem(field + ".topic", "scenario '" + shape.scenario() + "' reports no topic per reader");
        }
        int topic = count.topic() == null ? -1 : count.topic();
        if (count.records() < 0 || count.sum() < 0 || (shape.prints() && topic < 0)) {
          throw problem(field, "'records', 'sum' and 'topic' are never negative");
        }
        out.put(reader, new Figures(count.records(), count.sum(), topic));
      }
      return out;
    }

    private String version(String value, String field) {
      String v = required(value, field);
      if (!VERSION.matcher(v).matches()) throw problem(field, "must be a version such as 4.2.0, got '" + v + "'");
      return v;
    }

    private String required(String value, String field) {
      return source.required(value, field);
    }

    private LessonFormatException problem(String field, String message) {
      return source.problem(field, message);
    }
  }
}
