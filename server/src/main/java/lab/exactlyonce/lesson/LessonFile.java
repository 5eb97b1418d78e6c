package lab.exactlyonce.lesson;

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

  LessonFormatException problem(String path, int line, String message) {
    return new LessonFormatException(name + (line > 0 ? ":" + line : "") + (path.isEmpty() ? "" : ": " + path) + ": " + message);
  }
}
