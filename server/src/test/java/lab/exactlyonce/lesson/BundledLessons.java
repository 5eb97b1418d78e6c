package lab.exactlyonce.lesson;

import lab.exactlyonce.snippet.SnippetCatalog;

import java.nio.file.Path;
import java.util.List;

/** The lessons the app ships (the catalog the test apps serve by default), for tests that run once per lesson. */
public final class BundledLessons {
  private BundledLessons() {}

  public static List<Lesson> all() {
    return catalog().all();
  }

  /** The bundled lesson with that id. */
  public static Lesson get(String id) {
    return catalog().require(id);
  }

  private static LessonCatalog catalog() {
    return LessonCatalog.load(Path.of("lessons"), SnippetCatalog.load(Path.of("snippets"))::idsIn);
  }

  /** What the app answers about an unknown lesson id: "no lesson 'nope'; lessons here: ...", naming every lesson. */
  public static String unknown(String id) {
    return "no lesson '" + id + "'; lessons here: " + String.join(", ", ids());
  }

  public static List<String> ids() {
    return all().stream().map(Lesson::id).toList();
  }
}
