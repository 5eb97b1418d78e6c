package lab.exactlyonce;

import lab.exactlyonce.sandbox.SandboxSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real app on a free port, and a plain HTTP client to talk to it. Close it to stop the app. */
public final class TestServer implements AutoCloseable {
  private final App app;
  private final Path dataDir;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestServer(App app, Path dataDir) {
    this.app = app.start();
    this.dataDir = dataDir;
  }

  public static TestServer start() {
    return start(Config.forTests());
  }

  /** The app of {@code config}, with the quiz outputs this build's earlier test apps made (see SharedQuizOutputs). */
  public static TestServer start(Config config) {
    SharedQuizOutputs.seed(config.dataDir());
    return new TestServer(new App(config), config.dataDir());
  }

  /** The app of {@code config} on its data dir exactly as it is: for tests about what a data dir holds. */
  public static TestServer startOnDataDirAsIs(Config config) {
    return new TestServer(new App(config), config.dataDir());
  }

  /**
   * An app whose sandbox has {@code workers} workers, started with it and warm before this returns: for a class whose
   * tests run code from the first one on.
   */
  public static TestServer startWithSandbox(int workers) {
    return start(Config.forTests().withSandbox(SandboxSettings.defaults().withWorkers(workers))).awaitSandbox();
  }

  public App app() {
    return app;
  }

  /**
   * Waits until the app's sandbox workers are ready and returns this server; after 60 s it stops the app and fails
   * the test.
   */
  public TestServer awaitSandbox() {
    boolean ready;
    try {
      ready = app.sandbox().awaitReady(Duration.ofSeconds(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException(e);
    }
    if (!ready) close();
    assertTrue(ready, "sandbox workers ready within 60 s");
    return this;
  }

  public String url(String path) {
    return "http://127.0.0.1:" + app.port() + path;
  }

  public HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
  }

  public HttpResponse<String> post(String path, String contentType, String body) {
    var request = HttpRequest.newBuilder(URI.create(url(path))).POST(HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) request.header("Content-Type", contentType);
    return send(request);
  }

  public HttpResponse<String> postJson(String path, String json) {
    return post(path, "application/json", json);
  }

  /**
   * Sends a request the way this site's own pages would: a state-changing request without an {@code Origin} header
   * gets this server's origin (browsers add it; the API refuses state changes without it). Use {@link #sendAsIs}
   * to test what happens without one.
   */
  public HttpResponse<String> send(HttpRequest.Builder request) {
    HttpRequest built = request.timeout(Duration.ofSeconds(30)).build();
    if (!built.method().equals("GET") && !built.method().equals("HEAD") && built.headers().firstValue("Origin").isEmpty()) {
      built = HttpRequest.newBuilder(built, (name, value) -> true).header("Origin", origin()).build();
    }
    return sendAsIs(built);
  }

  /** This server's origin, as a browser on one of its pages would send it. */
  public String origin() {
    return "http://127.0.0.1:" + app.port();
  }

  /** Sends exactly this request, adding nothing. */
  public HttpResponse<String> sendAsIs(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    app.stop();
    SharedQuizOutputs.keep(dataDir);
  }
}
