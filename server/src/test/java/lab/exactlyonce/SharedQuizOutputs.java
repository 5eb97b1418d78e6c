package lab.exactlyonce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The quiz's run outputs ({@code <data dir>/quiz-outputs/<sha>.out}) shared by every test app of one build, so that
 * the first app that builds the quiz bank runs the snippet variants and the exercise starters and the next ones read
 * what it got, as an app restarted on its own data dir does. Outputs are keyed by the SHA-256 of exactly what ran,
 * and the folder is new for every Maven invocation ({@code eolab.test.quiz-outputs}, set by the pom), so an output
 * kept here was made by this build's own engine. Without the property (a test run from an IDE) nothing is shared.
 */
final class SharedQuizOutputs {
  private static final String FOLDER = "quiz-outputs";
  private static final Optional<Path> SHARED =
      Optional.ofNullable(System.getProperty("eolab.test.quiz-outputs")).filter(s -> !s.isBlank()).map(Path::of);

  private SharedQuizOutputs() {}

  /** Copies the build's outputs into a data dir that an app is about to open. */
  static void seed(Path dataDir) {
    SHARED.filter(Files::isDirectory).ifPresent(shared -> copy(shared, dataDir.resolve(FOLDER)));
  }

  /** Keeps the outputs a stopped app made for the apps that come after it. */
  static void keep(Path dataDir) {
    Path own = dataDir.resolve(FOLDER);
    if (Files.isDirectory(own)) SHARED.ifPresent(shared -> copy(own, shared));
  }

  /** Each {@code .out} file of {@code from} that {@code to} lacks, written whole or not at all. */
  private static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.list(from)) {
      Files.createDirectories(to);
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".out")).toList()) {
        Path target = to.resolve(file.getFileName().toString());
        if (Files.exists(target)) continue;
        Path tmp = Files.createTempFile(to, "copy", ".tmp");
        Files.copy(file, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot share quiz outputs from " + from + " to " + to, e);
    }
  }
}
