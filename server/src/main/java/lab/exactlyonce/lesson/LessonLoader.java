package lab.exactlyonce.lesson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads one {@code lesson.yaml} into a {@link Lesson}, turning every problem into one readable line. */
final class LessonLoader {
  static final String FILE_NAME = "lesson.yaml";

  private final ObjectMapper yaml = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
      .build();

  /** @param displayName how the file is named in messages, for example {@code lessons/exactly-once/lesson.yaml} */
  Lesson load(Path file, String displayName) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new LessonFormatException(displayName + ": cannot be read (" + e.getMessage() + ")");
    }
    try {
      return yaml.readValue(text, Lesson.class);
    } catch (JsonMappingException e) {
      throw new LessonFormatException(displayName + describe(e));
    } catch (JsonProcessingException e) {
      throw new LessonFormatException(displayName + line(e) + ": not valid YAML: " + e.getOriginalMessage());
    }
  }

  private static String describe(JsonMappingException e) {
    String path = fieldPath(e);
    Throwable cause = e.getCause();
    String problem = cause instanceof IllegalArgumentException ? cause.getMessage() : simplify(e.getOriginalMessage());
    return line(e) + (path.isEmpty() ? "" : ": " + path) + ": " + problem;
  }

  private static String line(JsonProcessingException e) {
    return e.getLocation() == null || e.getLocation().getLineNr() < 0 ? "" : ":" + e.getLocation().getLineNr();
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

  /** Jackson's messages name Java types; learners and authors think in YAML fields. */
  private static String simplify(String message) {
    if (message == null) return "invalid value";
    String first = message.lines().findFirst().orElse(message);
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
