package lab.exactlyonce.snippet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One Java content file under the snippets folder: {@code snippets/<lesson>/<Name>.java} for a snippet,
 * {@code snippets/<lesson>/exercises/<Name>.java} for an exercise. The one folder walk both catalogs use.
 *
 * @param shown how error messages name the file, such as {@code snippets/exactly-once/SinkDemo.java}
 */
public record ContentFile(String lesson, Path path, String shown) {

  /**
   * The {@code .java} files in {@code <lesson>/<subfolder>} of every lesson folder under {@code root}, sorted by
   * lesson and then by name; a lesson without that sub-folder has none.
   *
   * @param subfolder {@code ""} for the lesson folder itself
   */
  public static List<ContentFile> list(Path root, String subfolder) {
    List<ContentFile> found = new ArrayList<>();
    try (Stream<Path> lessons = Files.list(root)) {
      for (Path lessonDir : lessons.filter(Files::isDirectory).sorted(Comparator.comparing(Path::toString)).toList()) {
        String lesson = stripSlash(lessonDir.getFileName().toString());
        Path dir = subfolder.isEmpty() ? lessonDir : lessonDir.resolve(subfolder);
        if (!Files.isDirectory(dir)) continue;
        String prefix = "snippets/" + lesson + "/" + (subfolder.isEmpty() ? "" : subfolder + "/");
        try (Stream<Path> files = Files.list(dir)) {
          files.filter(f -> f.getFileName().toString().endsWith(".java") && Files.isRegularFile(f))
              .sorted(Comparator.comparing(Path::toString))
              .forEach(f -> found.add(new ContentFile(lesson, f, prefix + f.getFileName())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the content files under " + root, e);
    }
    return List.copyOf(found);
  }

  /** The file name without {@code .java}: where the files that go with it ({@code <name>.harness}, ...) are named from. */
  public String baseName() {
    String name = path.getFileName().toString();
    return name.substring(0, name.length() - ".java".length());
  }

  public String read() {
    return read(path);
  }

  /** A file beside this one, such as {@code <name>.harness}. */
  public Path sibling(String suffix) {
    return path.resolveSibling(baseName() + suffix);
  }

  public String readSibling(String suffix) {
    return read(sibling(suffix));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static String stripSlash(String name) {
    return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
  }
}
