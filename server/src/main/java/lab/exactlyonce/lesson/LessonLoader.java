package lab.exactlyonce.lesson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads one {@code lesson.yaml} into a {@link Lesson}, turning every problem into one readable line; other files of a
 * lesson folder (its rubrics) are read by {@link #read} with the same messages.
 */
public final class LessonLoader {
  static final String FILE_NAME = "lesson.yaml";

  private final ObjectMapper yaml = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
      .build();

  /** A parsed lesson and its file, kept for the checks that follow parsing. */
  record Loaded(Lesson lesson, LessonFile file) {}

  /** A parsed file of a lesson folder and the file, which names lines in the messages of later checks. */
  public record Parsed<T>(T value, LessonFile file) {}

  public LessonLoader() {}

  /** @param displayName how the file is named in messages, for example {@code lessons/exactly-once/lesson.yaml} */
  Loaded load(Path path, String displayName) {
    Parsed<Lesson> parsed = read(path, displayName, Lesson.class);
    return new Loaded(parsed.value(), parsed.file());
  }

  /**
   * Reads a YAML file of a lesson folder into {@code type}, whose records check their own values.
   *
   * @throws LessonFormatException naming the file, the line, the field and the problem
   */
  public <T> Parsed<T> read(Path path, String displayName, Class<T> type) {
    String text;
    try {
      text = Files.readString(path);
    } catch (IOException e) {
      throw new LessonFormatException(displayName + ": cannot be read (" + e.getMessage() + ")");
    }
    LessonFile file = new LessonFile(displayName, SourceLines.of(text));
    try {
      return new Parsed<>(yaml.readValue(text, type), file);
    } catch (JsonProcessingException e) {
      StreamReadException syntax = syntaxError(e);
      if (syntax != null) throw file.problem("", line(syntax), "not valid YAML: " + problems(syntax.getOriginalMessage()));
      if (e instanceof JsonMappingException mapping) throw describe(file, mapping);
      throw file.problem("", line(e), firstLine(e.getOriginalMessage()));
    }
  }

  /** Jackson reports YAML syntax errors found while binding as mapping errors; the cause tells them apart. */
  private static StreamReadException syntaxError(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StreamReadException read) return read;
    }
    return null;
  }

  /** SnakeYAML's message, without its excerpts and markers: "while parsing a flow mapping; expected ',' or '}'". */
  private static String problems(String message) {
    if (message == null) return "cannot be parsed";
    return String.join("; ", message.lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0))).toList());
  }

  private static LessonFormatException describe(LessonFile file, JsonMappingException e) {
    String path = fieldPath(e);
    Throwable cause = e.getCause();
    String problem = cause instanceof IllegalArgumentException ? cause.getMessage() : simplify(e.getOriginalMessage());
    int line = file.lines().lineOf(path);
    return file.problem(path, line > 0 ? line : line(e), problem);
  }

  private static int line(JsonProcessingException e) {
    return e.getLocation() == null ? 0 : Math.max(0, e.getLocation().getLineNr());
  }

  /** sections[2].blocks[0].items[1].answer, from Jackson's reference chain. */
  private static String fieldPath(JsonMappingException e) {
    var out = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getIndex() >= 0) out.append('[').append(ref.getIndex()).append(']');
      else if (ref.getFieldName() != null) out.append(out.isEmpty() ? "" : ".").append(ref.getFieldName());
    }
    return out.toString();
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.lines().findFirst().orElse(message).strip();
  }

  /** Jackson's messages name Java types; learners and authors think in YAML fields. */
  private static String simplify(String message) {
    if (message == null) return "invalid value";
    String first = firstLine(message);
    if (first.startsWith("Unrecognized field")) {
      int q1 = first.indexOf('"');
      int q2 = first.indexOf('"', q1 + 1);
      return "unknown field '" + first.substring(q1 + 1, q2) + "'";
    }
    if (first.contains("missing type id property 'kind'")) return "missing required field 'kind'";
    if (first.contains("Could not resolve type id")) {
      int q1 = first.indexOf('\'');
      int q2 = first.indexOf('\'', q1 + 1);
      return "unknown kind '" + first.substring(q1 + 1, q2)
          + "'; known kinds: text, steps, table, cards, pairs, compare, questions, scenario, exercise, snippet, note";
    }
    if (first.startsWith("Cannot deserialize value of type")) return "wrong type of value: " + first.replaceAll(" of type `[^`]*`", "");
    return first.replaceAll("`[a-z.]+\\.([A-Za-z$]+)`", "$1");
  }
}
