package lab.exactlyonce.snippet;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** Which file holds which snippet: the {@code // Id:} headers of {@code snippets/<lesson>/*.java}. */
public final class SnippetIds {
  private SnippetIds() {}

  /** Every snippet file of one lesson, id to file, sorted by id; empty when the lesson has no snippet folder. */
  public static Map<String, Path> in(Path snippetsRoot, String lessonId) {
    var byId = new TreeMap<String, Path>();
    for (ContentFile file : ContentFile.list(snippetsRoot, "")) {
      if (!file.lesson().equals(lessonId)) continue;
      byId.put(ContentHeader.read(file.shown(), file.read(), SnippetCatalog.KEYS).id(), file.path());
    }
    return Collections.unmodifiableMap(byId);
  }
}
