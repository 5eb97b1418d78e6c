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
 * What the engine lab's real Kafka broker and Flink job gave for a few settings of its scenarios,
 * {@code lessons/<id>/real-runs.yaml}: the quiz asks about them without running the engines (off by default, seconds
 * a run), and the engine lab's integration test runs every entry again and fails when a figure differs. Read and
 * checked at start like the lesson; a problem stops the server with one line naming the file, the field and what is
 * wrong. The format is in {@code lessons/SCHEMA.md}.
 *
 * @param kafka the Kafka version the figures come from
 * @param flink the Flink version the figures come from
 */
record RecordedRuns(String kafka, String flink, List<Run> runs) {
  static final String FILE_NAME = "real-runs.yaml";
  static final RecordedRuns NONE = new RecordedRuns("", "", List.of());
  static final String SEED_CRASH = "seed-crash";
  static final String FENCING = "fencing";
  static final String TIMEOUT_GOTCHA = "timeout-gotcha";
  /** The readers of the seed's crash, in the order the engine lab reports them. */
  static final List<String> READERS = List.of("read_committed", "read_uncommitted", "at_least_once");
  /** The knobs of the seed's crash, which its questions describe. */
  static final List<String> SEED_KNOBS = List.of("CHECKPOINT_AFTER", "CRASH_AFTER", "CRASH_BEFORE_COMPLETE", "CRASH_BEFORE_COMMIT");

  private static final Pattern RUN_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");
  private static final Pattern VERSION = Pattern.compile("\\d{1,4}(\\.\\d{1,4}){1,3}");
  private static final Pattern CLASS_NAME = Pattern.compile("([a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*");

  RecordedRuns {
    runs = List.copyOf(runs);
  }

  /**
   * One recorded run.
   *
   * @param about the lesson item its questions test and link to; for the seed's crash, the snippet block whose knobs
   *              it takes
   * @param knobs every knob's value, in {@link #SEED_KNOBS} order (empty for the scenarios without knobs)
   * @param readers records and sum per reader, in {@link #READERS} order
   * @param errors the exception classes the engines raised, the first one first
   * @param message the broker's error message the first exception carries (without the client's own prefix), which
   *                its question asks about; empty for the seed's crash
   */
  record Run(String id, String about, String scenario, Map<String, Object> knobs, Map<String, Figures> readers,
             List<String> errors, String message) {
    Run {
      knobs = Collections.unmodifiableMap(new LinkedHashMap<>(knobs));
      readers = Collections.unmodifiableMap(new LinkedHashMap<>(readers));
      errors = List.copyOf(errors);
      message = message == null ? "" : message;
    }
  }

  /** What one reader read: how many records, and the sum of their amounts. */
  record Figures(int records, int sum) {}

  /** The file as written. */
  record File(Engines engines, List<Entry> runs) {}

  record Engines(String kafka, String flink) {}

  record Entry(String id, String about, String scenario, Map<String, JsonNode> knobs, Map<String, Count> readers,
               List<String> errors, String message) {}

  record Count(Integer records, Integer sum) {}

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
      String kafka = version(file.engines().kafka(), "engines.kafka");
      String flink = version(file.engines().flink(), "engines.flink");
      LessonItems items = new LessonItems(lesson);
      List<Run> out = new ArrayList<>();
      Set<String> ids = new HashSet<>();
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
        Map<String, Object> values = switch (scenario) {
          case SEED_CRASH -> seedKnobs(at, about, e.knobs());
          case FENCING, TIMEOUT_GOTCHA -> {
            if (e.knobs() != null && !e.knobs().isEmpty()) throw problem(at + ".knobs", "scenario '" + scenario + "' takes no knobs");
            yield Map.of();
          }
          default -> throw problem(at + ".scenario", "must be " + SEED_CRASH + ", " + FENCING + " or " + TIMEOUT_GOTCHA
              + ", got '" + scenario + "'");
        };
        Integer same = settings.putIfAbsent(scenario + values, i);
        if (same != null) throw problem(at, "records the same scenario and knobs as runs[" + same + "]");
        Map<String, Figures> readers = readers(at + ".readers", scenario, e.readers());
        List<String> errors = e.errors() == null ? List.of() : e.errors().stream().map(s -> s == null ? "" : s.strip()).toList();
        for (int j = 0; j < errors.size(); j++) {
          if (!CLASS_NAME.matcher(errors.get(j)).matches()) {
            throw problem(at + ".errors[" + j + "]", "must be a class name with its package, got '" + errors.get(j) + "'");
          }
        }
        if (scenario.equals(SEED_CRASH) && !errors.isEmpty()) throw problem(at + ".errors", "the seed's crash raises no exception");
        if (!scenario.equals(SEED_CRASH) && errors.isEmpty()) {
          throw problem(at + ".errors", "scenario '" + scenario + "' needs the exceptions the engines raised");
        }
        String message = e.message() == null ? "" : e.message().strip();
        if (scenario.equals(SEED_CRASH) && !message.isEmpty()) throw problem(at + ".message", "the seed's crash raises no exception");
        if (!scenario.equals(SEED_CRASH) && message.isEmpty()) {
          throw problem(at + ".message", "scenario '" + scenario + "' needs the broker's message its question asks about");
        }
        out.add(new Run(id, about, scenario, values, readers, errors, message));
      }
      return new RecordedRuns(kafka, flink, out);
    }

    /** Every knob of the seed's crash, each inside the range of the {@code about} snippet's knob. */
    private Map<String, Object> seedKnobs(String at, String about, Map<String, JsonNode> given) {
      Block.Snippet block = snippetBlock(lesson, about).orElseThrow(() -> problem(at + ".about",
          "a " + SEED_CRASH + " run is about the snippet block whose knobs it takes; '" + about + "' is no snippet block"));
      if (rules.apply(block.snippet()) == null) {
        throw problem(at + ".about", "snippet '" + block.snippet() + "' has no predict rules in " + WrittenQuestions.FILE_NAME
            + "; its real-run questions state them");
      }
      Map<String, JsonNode> values = given == null ? Map.of() : given;
      if (!values.keySet().equals(Set.copyOf(SEED_KNOBS))) {
        throw problem(at + ".knobs", "a " + SEED_CRASH + " run names every knob: " + String.join(", ", SEED_KNOBS)
            + "; got " + (values.isEmpty() ? "none" : String.join(", ", values.keySet())));
      }
      Map<String, Object> out = new LinkedHashMap<>();
      for (String knob : SEED_KNOBS) {
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

    private Map<String, Figures> readers(String at, String scenario, Map<String, Count> given) {
      if (given == null || given.isEmpty()) throw problem(at, "needs what each reader read");
      for (String reader : given.keySet()) {
        if (!READERS.contains(reader)) throw problem(at + "." + reader, "must be one of " + String.join(", ", READERS));
      }
      if (scenario.equals(SEED_CRASH) && !given.keySet().equals(Set.copyOf(READERS))) {
        throw problem(at, "a " + SEED_CRASH + " run has every reader: " + String.join(", ", READERS));
      }
      Map<String, Figures> out = new LinkedHashMap<>();
      for (String reader : READERS) {
        if (!given.containsKey(reader)) continue;
        Count count = given.get(reader);
        String field = at + "." + reader;
        if (count == null || count.records() == null || count.sum() == null) {
          throw problem(field, "needs 'records' and 'sum'");
        }
        if (count.records() < 0 || count.sum() < 0) throw problem(field, "'records' and 'sum' are never negative");
        out.put(reader, new Figures(count.records(), count.sum()));
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
