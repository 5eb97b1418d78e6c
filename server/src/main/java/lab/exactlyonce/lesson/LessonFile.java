package lab.exactlyonce.lesson;

import java.util.function.BiFunction;

/**
 * A lesson file as messages name it: {@code name} (for example {@code lessons/exactly-once/lesson.yaml}) and the
 * lines of its fields. Every problem reads {@code <file>:<line>: <field path>: <what is wrong>}.
 */
public record LessonFile(String name, SourceLines lines) {

  public LessonFormatException problem(String path, String message) {
    return problem(path, lines.lineOf(path), message);
  }

  /** The line where the field at {@code path} starts (or its nearest enclosing field); 0 when unknown. */
  public int lineOf(String path) {
    return lines.lineOf(path);
  }

  /** {@code value} stripped; a missing or blank one is the problem of its parent field, naming the missing one. */
  public String required(String value, String path) {
    return required(value, path, this::problem);
  }

  /** {@link #required(String, String)} for a reader that words its problems itself. */
  public static String required(String value, String path, BiFunction<String, String, LessonFormatException> problem) {
    if (value == null || value.isBlank()) {
      throw problem.apply(path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : "",
          "missing required field '" + path.substring(path.lastIndexOf('.') + 1) + "'");
    }
    return value.strip();
  }

  LessonFormatException problem(String path, int line, String message) {
    return new LessonFormatException(name + (line > 0 ? ":" + line : "") + (path.isEmpty() ? "" : ": " + path) + ": " + message);
  }
}
