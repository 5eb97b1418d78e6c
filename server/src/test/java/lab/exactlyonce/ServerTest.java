package lab.exactlyonce;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Base for tests against one running app per test class: {@link #server} is started before the first test and stopped
 * after the last. Override {@link #startServer()} to start the app with another {@link Config}, or to wait for it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServerTest {
  protected TestServer server;

  /** Subclasses may override to start the app differently. */
  protected TestServer startServer() {
    return TestServer.start();
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
