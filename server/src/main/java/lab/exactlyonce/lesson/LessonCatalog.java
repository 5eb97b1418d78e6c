package lab.exactlyonce.lesson;

import io.javalin.http.NotFoundResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Every lesson found under the lessons folder: one sub-folder per lesson, each with a {@code lesson.yaml}. */
public final class LessonCatalog {
  private final Map<String, Lesson> byId;

  private LessonCatalog(Map<String, Lesson> byId) {
    this.byId = byId;
  }

  /** The ids of the snippets in {@code snippets/<lesson>/}, which a lesson's blocks may name; the snippet catalog knows them. */
  @FunctionalInterface
  public interface SnippetIndex {
    Set<String> idsIn(String lessonId);
  }

  /**
   * Loads and validates every lesson; the first broken one stops loading with a {@link LessonFormatException}.
   *
   * @param snippets the snippets that lessons refer to
   */
  public static LessonCatalog load(Path root, SnippetIndex snippets) {
    var loader = new LessonLoader();
    var lessons = new LinkedHashMap<String, Lesson>();
    for (Path dir : lessonFolders(root)) {
      String folder = dir.getFileName().toString().replace("/", "");
      LessonLoader.Loaded loaded = loader.load(dir.resolve(LessonLoader.FILE_NAME), "lessons/" + folder + "/" + LessonLoader.FILE_NAME);
      Lesson lesson = loaded.lesson();
      if (!lesson.id().equals(folder)) {
        throw loaded.file().problem("id", "must match the folder name '" + folder + "', got '" + lesson.id() + "'");
      }
      LessonReferences.check(lesson, loaded.file(), snippets.idsIn(lesson.id()),
          "snippets/" + lesson.id() + "/");
      LessonTopics.check(lesson, loaded.file());
      lessons.put(lesson.id(), lesson);
    }
    if (lessons.isEmpty()) throw new LessonFormatException(root + ": no lesson folders with a " + LessonLoader.FILE_NAME);
    return new LessonCatalog(Collections.unmodifiableMap(lessons));
  }

  private static List<Path> lessonFolders(Path root) {
    try (Stream<Path> children = Files.list(root)) {
      return children.filter(p -> Files.isRegularFile(p.resolve(LessonLoader.FILE_NAME))).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<Lesson> all() {
    return List.copyOf(byId.values());
  }

  public Optional<Lesson> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The lesson a path names: an unknown id is a 404 naming the lessons there are. */
  public Lesson require(String id) {
    return find(id).orElseThrow(() -> new NotFoundResponse(unknown(id)));
  }

  /** What to answer about an unknown lesson id, for a request that names it in its body (a 400, not a 404). */
  public String unknown(String id) {
    return "no lesson '" + id + "'; lessons here: " + String.join(", ", byId.keySet());
  }
}
