package lab.exactlyonce;

import lab.exactlyonce.classroom.ClassroomSettings;
import lab.exactlyonce.enginelab.EngineLabSettings;
import lab.exactlyonce.ops.OpsSettings;
import lab.exactlyonce.share.ShareSettings;
import lab.exactlyonce.store.StoreSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Optional;

/** The configuration test apps start from. */
public final class TestConfig {
  private TestConfig() {}

  /**
   * A free port, bundled content, a throwaway data directory with its own H2 database, one sandbox worker that starts
   * with the first run (most tests run no code; a test of the pool asks for more), no request log, and a
   * {@link TestClock} of its own that a test can move on. To run the tests against another database (PostgreSQL),
   * pass {@code -Deolab.test.jdbc-url=...} (and {@code -Deolab.test.jdbc-user}, {@code -Deolab.test.jdbc-password}) to
   * Maven.
   */
  public static Config defaults() {
    StoreSettings store = new StoreSettings(Optional.ofNullable(System.getProperty("eolab.test.jdbc-url")),
        System.getProperty("eolab.test.jdbc-user", ""), System.getProperty("eolab.test.jdbc-password", ""));
    try {
      return new Config("127.0.0.1", 0, Files.createTempDirectory("eolab-test"), Optional.empty(), Optional.empty(),
          TestJvm.sandboxDefaults().withWorkers(1).startingOnFirstRun(), store, ClassroomSettings.defaults(),
          ShareSettings.defaults(), OpsSettings.defaults().withRequestLog(false), EngineLabSettings.disabled(),
          new TestClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
