package lab.exactlyonce.exercise;

import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.lesson.SnippetIds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fix-the-sink exercises of every lesson: {@code snippets/<lesson>/exercises/<Name>.java} with a
 * {@code // Title:} line and {@code // Summary:} lines, and beside it what the exercise provides to the learner's code
 * {@code <Name>.provided}, its checker {@code <Name>.harness} and its reference solution {@code <Name>.solution}
 * (the tests prove that the solution passes every scenario). A starter without a title, provided code, a checker or
 * a solution, or an id used twice, stops the start with one line naming the file.
 */
public final class ExerciseCatalog {
  private static final Pattern HEADER = Pattern.compile("^//\\s*([A-Z][A-Za-z]*):\\s?(.*)$");

  private final Map<String, Exercise> byId;

  private ExerciseCatalog(Map<String, Exercise> byId) {
    this.byId = byId;
  }

  public static ExerciseCatalog load(Path snippetsRoot) {
    Map<String, Exercise> byId = new LinkedHashMap<>();
    try (Stream<Path> lessons = Files.list(snippetsRoot)) {
      for (Path lessonDir : lessons.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList()) {
        Path dir = lessonDir.resolve("exercises");
        if (!Files.isDirectory(dir)) continue;
        String lesson = stripSlash(lessonDir.getFileName().toString());
        try (Stream<Path> files = Files.list(dir)) {
          for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".java"))
              .sorted(Comparator.comparing(Path::toString)).toList()) {
            String fileName = file.getFileName().toString();
            String shown = "snippets/" + lesson + "/exercises/" + fileName;
            String name = fileName.substring(0, fileName.length() - ".java".length());
            Path provided = dir.resolve(name + ".provided");
            if (!Files.exists(provided)) {
              throw new LessonFormatException(shown + ": no provided code " + provided.getFileName() + " beside it");
            }
            Path harness = dir.resolve(name + ".harness");
            if (!Files.exists(harness)) throw new LessonFormatException(shown + ": no checker " + harness.getFileName() + " beside it");
            Path solution = dir.resolve(name + ".solution");
            if (!Files.exists(solution)) {
              throw new LessonFormatException(shown + ": no reference solution " + solution.getFileName() + " beside it");
            }
            Exercise exercise = parse(shown, lesson, fileName, Files.readString(file, StandardCharsets.UTF_8),
                Files.readString(provided, StandardCharsets.UTF_8), Files.readString(harness, StandardCharsets.UTF_8),
                Files.readString(solution, StandardCharsets.UTF_8));
            if (byId.putIfAbsent(exercise.id(), exercise) != null) {
              throw new LessonFormatException(shown + ": exercise id '" + exercise.id() + "' is already used");
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read exercises under " + snippetsRoot, e);
    }
    return new ExerciseCatalog(Map.copyOf(byId));
  }

  static Exercise parse(String shown, String lesson, String fileName, String text, String provided, String harness,
                        String solution) {
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    String title = null;
    List<String> summary = new ArrayList<>();
    int body = 0;
    for (; body < lines.length; body++) {
      Matcher m = HEADER.matcher(lines[body]);
      if (!m.matches()) break;
      switch (m.group(1)) {
        case "Title" -> title = m.group(2).strip();
        case "Summary" -> summary.add(m.group(2).strip());
        default -> throw new LessonFormatException(shown + ": line " + (body + 1) + ": unknown header '" + m.group(1)
            + ":'; known headers: Title, Summary");
      }
    }
    if (title == null || title.isBlank()) throw new LessonFormatException(shown + ": missing '// Title:' header line");
    if (!harness.contains(Exercise.ENTRY)) {
      throw new LessonFormatException(shown + ": its checker has no method '" + Exercise.ENTRY + "...)' for the sandbox to call");
    }
    if (provided.isBlank()) throw new LessonFormatException(shown + ": its provided code is empty");
    String source = String.join("\n", List.of(lines).subList(body, lines.length));
    return new Exercise(SnippetIds.of(fileName), lesson, title, String.join(" ", summary), source, provided, harness,
        solution);
  }

  List<Exercise> all() {
    return byId.values().stream().sorted(Comparator.comparing(Exercise::lesson).thenComparing(Exercise::id)).toList();
  }

  Optional<Exercise> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  private static String stripSlash(String name) {
    return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
  }

  /** The ids of a lesson's exercises, in page order (what its progress counts). */
  public List<String> idsIn(String lesson) {
    return all().stream().filter(e -> e.lesson().equals(lesson)).map(Exercise::id).toList();
  }
}
