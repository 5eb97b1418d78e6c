package lab.exactlyonce.exercise;

import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** An exercise folder missing a piece stops the start with one line naming the file and what is missing. */
class ExerciseCatalogTest {
  @TempDir
  Path snippets;

  private static final String CHECKER = "public class Checker { public static void check(Check check) {} }";
  private static final String PROVIDED = "public interface Sink { void write(String key); }";
  private static final String HINTS = "- verdict: \"duplicate write of *\"\n  reader: \"a reader saw a row twice\"\n"
      + "  hint: \"Write each row once.\"\n";

  private Path exercise(String harness, String solution) throws IOException {
    return exercise(PROVIDED, harness, solution);
  }

  private Path exercise(String provided, String harness, String solution) throws IOException {
    Path dir = Files.createDirectories(snippets.resolve("a-lesson/exercises"));
    Files.writeString(dir.resolve("FixIt.java"),
        "// Id: fix-it\n// Title: Fix it\n// Summary: Make it right.\nclass MySink implements Sink {}\n");
    if (provided != null) Files.writeString(dir.resolve("FixIt.provided"), provided);
    if (harness != null) Files.writeString(dir.resolve("FixIt.harness"), harness);
    if (solution != null) Files.writeString(dir.resolve("FixIt.solution"), solution);
    Files.writeString(dir.resolve("FixIt.md"), "The job calls `write(key)` once per record.\n");
    Files.writeString(dir.resolve("FixIt.hints.yaml"), HINTS);
    return dir;
  }

  @Test
  void a_complete_exercise_loads_with_its_solution() throws IOException {
    exercise(CHECKER, "class Sink { /* right */ }\n");
    Exercise e = ExerciseCatalog.load(snippets).find("fix-it").orElseThrow();
    assertEquals("Fix it", e.title());
    assertEquals("Make it right.", e.description());
    assertEquals("class Sink { /* right */ }\n", e.solution());
    assertEquals("The job calls `write(key)` once per record.\n", e.instructions());
    assertEquals(List.of(new ExerciseHints.Hint("duplicate write of *", "a reader saw a row twice",
        "Write each row once.")), e.hints());
    assertTrue(e.hints().get(0).matches("duplicate write of o3 after replay from offset 2"));
    assertFalse(e.hints().get(0).matches("record o3 lost"));
  }

  @Test
  void an_exercise_without_hints_is_refused() throws IOException {
    Files.delete(exercise(CHECKER, "class Sink {}").resolve("FixIt.hints.yaml"));
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: no known failure reasons FixIt.hints.yaml beside it",
        e.getMessage());
  }

  static Stream<Arguments> badHints() {
    return Stream.of(
        arguments("- verdict: \"a *\"\n  reader: \"r\"\n", "hint 1: needs 'hint' as text"),
        arguments("- verdict: \"a *\"\n  reader: \"r\"\n  hint: \"h\"\n  hnit: \"h\"\n",
            "hint 1: unknown key 'hnit'; known keys: verdict, reader, hint"),
        arguments("- {verdict: \"a *\", reader: r, hint: h}\n- {verdict: \"a *\", reader: s, hint: i}\n",
            "hint 2: verdict 'a *' is listed twice"),
        arguments("[]\n", "must be a list of {verdict, reader, hint}, one per known failure reason"),
        arguments("- {verdict: [a], reader: r, hint: h}\n", "hint 1: needs 'verdict' as text"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badHints")
  void malformed_hints_stop_the_start_naming_the_entry(String yaml, String message) throws IOException {
    Files.writeString(exercise(CHECKER, "class Sink {}").resolve("FixIt.hints.yaml"), yaml);
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.hints.yaml: " + message, e.getMessage());
  }

  @Test
  void an_exercise_without_instructions_is_refused() throws IOException {
    Files.delete(exercise(CHECKER, "class Sink {}").resolve("FixIt.md"));
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: no instructions FixIt.md beside it", e.getMessage());
  }

  @Test
  void an_exercise_with_empty_instructions_is_refused() throws IOException {
    Files.writeString(exercise(CHECKER, "class Sink {}").resolve("FixIt.md"), "  \n");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: its instructions are empty", e.getMessage());
  }

  @Test
  void an_exercise_without_a_reference_solution_is_refused() throws IOException {
    exercise(CHECKER, null);
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: no reference solution FixIt.solution beside it", e.getMessage());
  }

  @Test
  void an_exercise_without_a_checker_is_refused() throws IOException {
    exercise(null, "class Sink {}");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: no checker FixIt.harness beside it", e.getMessage());
  }

  @Test
  void an_exercise_without_its_provided_code_is_refused() throws IOException {
    exercise(null, CHECKER, "class MySink implements Sink {}");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: no provided code FixIt.provided beside it", e.getMessage());
  }

  @Test
  void a_checker_without_the_entry_the_sandbox_calls_is_refused() throws IOException {
    exercise("public class Checker { public static void main(String[] args) {} }", "class MySink implements Sink {}");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: its checker has no method 'public static void check(Check ...)'"
        + " for the sandbox to call", e.getMessage());
  }

  @Test
  void an_exercise_without_an_id_is_refused() throws IOException {
    Path dir = exercise(CHECKER, "class Sink {}");
    Files.writeString(dir.resolve("FixIt.java"), "// Title: Fix it\nclass MySink implements Sink {}\n");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixIt.java: missing '// Id:' header line (the stable id lessons and progress"
        + " refer to, such as '// Id: sink-demo')", e.getMessage());
  }

  @Test
  void two_exercises_with_one_id_are_refused_naming_both_files_and_lines() throws IOException {
    Path dir = exercise(CHECKER, "class Sink {}");
    for (String suffix : List.of(".provided", ".harness", ".solution", ".md", ".hints.yaml")) {
      Files.copy(dir.resolve("FixIt" + suffix), dir.resolve("FixItAgain" + suffix));
    }
    Files.writeString(dir.resolve("FixItAgain.java"), "// Title: Again\n// Id: fix-it\nclass MySink implements Sink {}\n");
    var e = assertThrows(LessonFormatException.class, () -> ExerciseCatalog.load(snippets));
    assertEquals("snippets/a-lesson/exercises/FixItAgain.java: line 2: exercise id 'fix-it' is already used by"
        + " snippets/a-lesson/exercises/FixIt.java:1; exercise ids must be unique over all lessons", e.getMessage());
  }

  @Test
  void the_bundled_exercises_keep_the_ids_that_stored_progress_points_at() {
    assertEquals(List.of("dedupe-horizon", "exactly-once-append", "idempotent-payment", "inbox-consumer"),
        ExerciseCatalog.load(Path.of("snippets")).all().stream().map(Exercise::id).toList());
  }
}
