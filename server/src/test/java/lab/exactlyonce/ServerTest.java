package lab.exactlyonce;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base for tests against one running app per test class: {@link #server} is ready before the first test. By default it
 * is the test JVM's warm shared app ({@link TestApps}); override {@link #startServer()} to start an app of the class's
 * own with another {@link Config} (stopped after the last test), or to share another variant.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServerTest {
  protected TestServer server;

  /** Subclasses may override to start the app differently. */
  protected TestServer startServer() {
    return TestApps.shared(TestApps.Variant.DEFAULT);
  }

  @BeforeAll
  void startTestServer() {
    server = startServer();
  }

  @AfterAll
  void stopTestServer() {
    if (server != null) server.close();
  }
}
