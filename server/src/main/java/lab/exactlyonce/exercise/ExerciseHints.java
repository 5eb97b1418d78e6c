package lab.exactlyonce.exercise;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import lab.exactlyonce.lesson.LessonFormatException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An exercise's known failure reasons, from {@code <Name>.hints.yaml}: a list of {@code {verdict, reader, hint}}.
 * {@code verdict} matches a checker's verdict whole, {@code *} standing for any text ("duplicate write of *");
 * {@code reader} says what a reader of the output saw when it fails that way; {@code hint} is what to look at. The
 * file's order is the hints' priority: a failed check offers the hint of the first reason it has, so the reason that
 * explains the others (state kept in statics, say) goes first. A malformed file stops the start naming the entry.
 */
final class ExerciseHints {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final List<String> KEYS = List.of("verdict", "reader", "hint");

  private ExerciseHints() {}

  /** One known failure reason. */
  record Hint(String verdict, String reader, String hint) {
    Hint {
      for (String text : List.of(verdict, reader, hint)) {
        if (text.isBlank()) throw new IllegalArgumentException("a hint needs a verdict, a reader and a hint");
      }
    }

    boolean matches(String text) {
      return Pattern.compile(String.join(".*", List.of(verdict.split("\\*", -1)).stream().map(Pattern::quote)
          .toList()), Pattern.DOTALL).matcher(text).matches();
    }
  }

  static List<Hint> read(String shown, String yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new LessonFormatException(shown + ": not YAML: " + e.getOriginalMessage());
    }
    if (root == null || !root.isArray() || root.isEmpty()) {
      throw new LessonFormatException(shown + ": must be a list of {verdict, reader, hint}, one per known failure reason");
    }
    List<Hint> hints = new ArrayList<>();
    Set<String> verdicts = new HashSet<>();
    for (int i = 0; i < root.size(); i++) {
      String at = shown + ": hint " + (i + 1) + ": ";
      JsonNode entry = root.get(i);
      if (!entry.isObject()) throw new LessonFormatException(at + "must be a map of verdict, reader and hint");
      for (Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!KEYS.contains(name)) {
          throw new LessonFormatException(at + "unknown key '" + name + "'; known keys: " + String.join(", ", KEYS));
        }
      }
      List<String> texts = new ArrayList<>();
      for (String key : KEYS) {
        JsonNode value = entry.get(key);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
          throw new LessonFormatException(at + "needs '" + key + "' as text");
        }
        texts.add(value.asText().strip());
      }
      if (!verdicts.add(texts.get(0))) throw new LessonFormatException(at + "verdict '" + texts.get(0) + "' is listed twice");
      hints.add(new Hint(texts.get(0), texts.get(1), texts.get(2)));
    }
    return List.copyOf(hints);
  }
}
