package lab.exactlyonce;

import lab.exactlyonce.lesson.SnippetIds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The fix-the-sink exercises' reference solutions, as authored: {@code snippets/<lesson>/exercises/<Name>.solution}. */
public final class ReferenceSolutions {
  private ReferenceSolutions() {
  }

  /** The reference solution of the exercise with this id, such as {@code exactly-once-append}. */
  public static String of(String exerciseId) {
    try (Stream<Path> files = Files.walk(Path.of("snippets"))) {
      Path file = files.filter(f -> f.getFileName().toString().endsWith(".solution"))
          .filter(f -> SnippetIds.of(f.getFileName().toString().replace(".solution", ".java")).equals(exerciseId))
          .findFirst().orElseThrow(() -> new IllegalArgumentException("no reference solution for exercise '" + exerciseId + "'"));
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
