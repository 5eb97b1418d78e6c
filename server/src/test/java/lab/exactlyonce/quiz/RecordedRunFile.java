package lab.exactlyonce.quiz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bundled lesson's recorded real runs ({@code lessons/exactly-once/real-runs.yaml}) as the engine lab's test checks
 * them against the engines: what to send for each run, and the figures written the file's way, recorded or as the
 * engines gave them, so a difference prints what to paste into the file.
 */
public final class RecordedRunFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final RecordedRuns recorded;

  private RecordedRunFile(RecordedRuns recorded) {
    this.recorded = recorded;
  }

  /** The first lesson's file as the app reads it at start, checked the same way. */
  public static RecordedRunFile bundled() {
    return bundled("exactly-once");
  }

  /** A bundled lesson's file as the app reads it at start, checked the same way. */
  public static RecordedRunFile bundled(String lesson) {
    Path lessons = Path.of("lessons");
    SnippetCatalog snippets = SnippetCatalog.load(Path.of("snippets"));
    LessonCatalog catalog = LessonCatalog.load(lessons, snippets::idsIn);
    WrittenQuestions written = WrittenQuestions.load(lessons, catalog.require(lesson), Set.of());
    return new RecordedRunFile(RecordedRuns.load(lessons, catalog.require(lesson),
        id -> snippets.find(id).map(Snippet::knobs).orElse(List.of()), written.predictRules()::get));
  }

  /** Each run's knobs, in the file's order. */
  public List<Map<String, Object>> knobs() {
    return recorded.runs().stream().map(RecordedRuns.Run::knobs).toList();
  }

  /** Each run's body for {@code POST /api/lab/real-runs}, in the file's order. */
  public List<String> requests() {
    List<String> out = new ArrayList<>();
    for (RecordedRuns.Run run : recorded.runs()) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("scenario", run.scenario());
      if (!run.knobs().isEmpty()) body.put("knobs", run.knobs());
      try {
        out.add(JSON.writeValueAsString(body));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** The recorded figures, as the file holds them. */
  public String recorded() {
    return yaml(recorded);
  }

  /**
   * The same runs with what the engines gave instead.
   *
   * @param results each run's result from {@code GET /api/lab/real-runs/{id}}, in the order of {@link #requests()}
   */
  public String actual(String kafka, String flink, List<JsonNode> results) {
    return actual(Map.of("kafka", kafka, "flink", flink), results);
  }

  /**
   * The same runs with what the engines gave instead.
   *
   * @param engines the version of each engine in the engine lab's jar, by name
   * @param results each run's result from {@code GET /api/lab/real-runs/{id}}, in the order of {@link #requests()}
   */
  public String actual(Map<String, String> engines, List<JsonNode> results) {
    List<RecordedRuns.Run> runs = new ArrayList<>();
    for (int i = 0; i < recorded.runs().size(); i++) {
      RecordedRuns.Run run = recorded.runs().get(i);
      Map<String, RecordedRuns.Figures> readers = new LinkedHashMap<>();
      results.get(i).path("readers").fields().forEachRemaining(reader -> readers.put(reader.getKey(),
          new RecordedRuns.Figures(reader.getValue().path("records").asInt(), reader.getValue().path("sum").asInt(),
              reader.getValue().path("topicRecords").asInt(-1))));
      // each class once, in the order first raised: how often one is raised depends on timing (the zombie's send
      // and its commit can both be refused, or only the commit)
      Set<String> errors = new LinkedHashSet<>();
      results.get(i).path("errors").forEach(error -> errors.add(error.path("class").asText()));
      runs.add(new RecordedRuns.Run(run.id(), run.about(), run.scenario(), run.knobs(), readers, List.copyOf(errors),
          brokerMessage(results.get(i).path("errors").path(0).path("message").asText("")), lines(results.get(i))));
    }
    Map<String, String> versions = new LinkedHashMap<>();
    for (String engine : RecordedRuns.ENGINES) {
      if (recorded.engines().containsKey(engine)) versions.put(engine, engines.getOrDefault(engine, ""));
    }
    return yaml(new RecordedRuns(versions, runs));
  }

  private static List<String> lines(JsonNode result) {
    List<String> out = new ArrayList<>();
    result.path("lines").forEach(line -> out.add(line.asText()));
    return out;
  }

  /**
   * The broker's part of an exception's message: the Kafka client puts its own words before it, ending in "; "
   * ("Unexpected error in InitProducerIdResponse; The transaction timeout is larger than ...").
   */
  static String brokerMessage(String message) {
    int cut = message.lastIndexOf("; ");
    return cut < 0 ? message : message.substring(cut + 2);
  }

  /** The file's layout, without its leading comment: one flow mapping per knob set and per reader. */
  private static String yaml(RecordedRuns runs) {
    StringBuilder out = new StringBuilder("engines:\n");
    runs.engines().forEach((engine, version) -> out.append("  ").append(engine).append(": ").append(version).append('\n'));
    out.append("runs:\n");
    for (RecordedRuns.Run run : runs.runs()) {
      out.append("  - id: ").append(run.id()).append("\n    about: ").append(run.about())
          .append("\n    scenario: ").append(run.scenario()).append('\n');
      if (!run.knobs().isEmpty()) {
        List<String> knobs = new ArrayList<>();
        run.knobs().forEach((knob, value) -> knobs.add(knob + ": " + value));
        out.append("    knobs: {").append(String.join(", ", knobs)).append("}\n");
      }
      out.append("    readers:\n");
      run.readers().forEach((reader, f) -> out.append("      ").append(reader).append(": {records: ").append(f.records())
          .append(", sum: ").append(f.sum()).append(f.topic() < 0 ? "" : ", topic: " + f.topic()).append("}\n"));
      if (!run.errors().isEmpty()) out.append("    errors: [").append(String.join(", ", run.errors())).append("]\n");
      if (!run.message().isEmpty()) {
        out.append("    message: \"").append(run.message().replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
      }
      if (!run.lines().isEmpty()) {
        out.append("    lines:\n");
        run.lines().forEach(line -> out.append("      - \"").append(line).append("\"\n"));
      }
    }
    return out.toString();
  }
}
