package lab.exactlyonce.lesson;

/**
 * A lesson file as messages name it: {@code name} (for example {@code lessons/exactly-once/lesson.yaml}) and the
 * lines of its fields. Every problem reads {@code <file>:<line>: <field path>: <what is wrong>}.
 */
record LessonFile(String name, SourceLines lines) {

  LessonFormatException problem(String path, String message) {
    return problem(path, lines.lineOf(path), message);
  }

  LessonFormatException problem(String path, int line, String message) {
    return new LessonFormatException(name + (line > 0 ? ":" + line : "") + (path.isEmpty() ? "" : ": " + path) + ": " + message);
  }
}
