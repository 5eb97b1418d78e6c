package lab.exactlyonce;

import lab.exactlyonce.snippet.ContentFile;

import java.nio.file.Path;

/** The fix-the-sink exercises' reference solutions, as authored: {@code snippets/<lesson>/exercises/<Name>.solution}. */
public final class ReferenceSolutions {
  private ReferenceSolutions() {
  }

  /** The reference solution of the exercise whose {@code // Id:} is this, such as {@code exactly-once-append}. */
  public static String of(String exerciseId) {
    for (ContentFile file : ContentFile.list(Path.of("snippets"), "exercises")) {
      if (file.read().lines().anyMatch(line -> line.equals("// Id: " + exerciseId))) return file.readSibling(".solution");
    }
    throw new IllegalArgumentException("no reference solution for exercise '" + exerciseId + "'");
  }
}
