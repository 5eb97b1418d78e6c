package lab.exactlyonce.lesson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * How snippet files are named: {@code snippets/<lesson>/SinkDemo.java} has the id {@code sink-demo}. The one place
 * that maps files to ids, for the lesson checks and the sandbox alike.
 */
public final class SnippetIds {
  private SnippetIds() {}

  /** {@code SinkDemo.java} to {@code sink-demo}; {@code TxnDedupeDemo.java} to {@code txn-dedupe-demo}. */
  public static String of(String fileName) {
    String base = fileName.endsWith(".java") ? fileName.substring(0, fileName.length() - 5) : fileName;
    return base.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replaceAll("([A-Z])([A-Z][a-z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }

  /** Every snippet of one lesson, id to file, sorted by id; empty when the lesson has no snippet folder. */
  public static Map<String, Path> in(Path snippetsRoot, String lessonId) {
    Path folder = snippetsRoot.resolve(lessonId);
    if (!Files.isDirectory(folder)) return Map.of();
    try (Stream<Path> files = Files.list(folder)) {
      var byId = new TreeMap<String, Path>();
      files.filter(f -> f.getFileName().toString().endsWith(".java") && Files.isRegularFile(f))
          .forEach(f -> byId.put(of(f.getFileName().toString()), f));
      return Collections.unmodifiableMap(byId);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
