package lab.exactlyonce.sandbox.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The worker's own temporary directory, emptied after every run so that nothing one learner's run leaves there is
 * there for the next. Named by the pool with {@value #PROPERTY}; a worker started without it (in-process tests)
 * has none and empties nothing.
 */
final class PrivateTempDir {
  static final String PROPERTY = "eolab.worker.tmp";

  private final Path dir;

  private PrivateTempDir(Path dir) {
    this.dir = dir;
  }

  static PrivateTempDir fromProperty() {
    String value = System.getProperty(PROPERTY);
    return new PrivateTempDir(value == null || value.isBlank() ? null : Path.of(value));
  }

  /** Deletes everything inside the directory (not the directory itself); a failure is logged, never fatal. */
  void empty(PrintStream log) {
    if (dir == null) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      log.println("sandbox worker: could not empty its temp dir " + dir + ": " + e);
    }
  }
}
