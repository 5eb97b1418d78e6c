package lab.exactlyonce;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What one test JVM (a Surefire fork, which runs class after class) sets up first and tears down last: its own temp
 * folder (the pom points {@code java.io.tmpdir} at one per fork, so no fork sweeps another's), and at the end the
 * fixtures its classes shared ({@link TestApps}, {@link Browsers}). Registered in
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}.
 */
public final class ForkSetup implements LauncherSessionListener {
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    try {
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make this fork's temp folder", e);
    }
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    TestApps.closeAll();
    Browsers.close();
  }
}
