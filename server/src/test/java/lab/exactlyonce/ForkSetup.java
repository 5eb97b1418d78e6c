package lab.exactlyonce;

import lab.exactlyonce.store.TempDirs;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What one test JVM (a Surefire fork, which runs class after class) sets up first and tears down last: its own temp
 * folder ({@code eolab.test.fork-temp}, where the pom also points {@code java.io.tmpdir}, so no fork sweeps another's),
 * which holds every test app's data dir and is emptied at the start and at the end, and at the end the fixtures its
 * classes shared ({@link TestApps}, {@link Browsers}). Registered in
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}.
 */
public final class ForkSetup implements LauncherSessionListener {
  /** The fork's own temp folder (the pom names it); unset outside a Surefire fork, where nothing is emptied. */
  private static final String FORK_TEMP = System.getProperty("eolab.test.fork-temp", "");

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    if (FORK_TEMP.isEmpty()) return; // not a test fork: Surefire also opens a session in Maven's own JVM, to list tests
    try {
      Files.createDirectories(Path.of(FORK_TEMP));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make this fork's temp folder", e);
    }
    empty(); // what an earlier build's fork of this number left
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    TestApps.closeAll();
    Browsers.close();
    if (!FORK_TEMP.isEmpty()) empty();
  }

  /** Removes what is in the fork's own temp folder, and refuses any folder not named as one. */
  private static void empty() {
    Path temp = Path.of(FORK_TEMP);
    if (!temp.getFileName().toString().startsWith("tmp-fork-")) {
      throw new IllegalStateException("not a fork's temp folder, so not emptied: " + temp);
    }
    try (Stream<Path> left = Files.list(temp)) {
      for (Path p : left.toList()) TempDirs.deleteTree(p);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty this fork's temp folder " + temp, e);
    }
  }
}
