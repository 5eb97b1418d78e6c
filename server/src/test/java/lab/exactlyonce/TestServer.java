package lab.exactlyonce;

import lab.exactlyonce.sandbox.InProcessSandbox;
import lab.exactlyonce.sandbox.Sandbox;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real app on a free port, and a plain HTTP client to talk to it. The app runs in this JVM, or (from
 * {@link #startProcess}) in a process of its own that a test can kill. Close it to stop the app. A shared app
 * ({@link TestApps}) outlives the class that asked for it: closing it does nothing.
 */
public final class TestServer implements AutoCloseable {
  /** The line the app prints once it serves, with its port. */
  public static final Pattern SERVING = Pattern.compile("Exactly-Once Lab is serving http://localhost:(\\d+)/");
  /** Every app a test started and has not closed, shared ones aside: {@link LeakCheck} fails a class that leaves one. */
  private static final Set<TestServer> OPEN = ConcurrentHashMap.newKeySet();

  private final App app;
  private final Process process;
  private final int port;
  private final Path dataDir;
  private final boolean shared;
  private boolean stopped;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestServer(App app, Path dataDir, boolean shared) {
    this.app = app.start();
    this.process = null;
    this.port = this.app.port();
    this.dataDir = dataDir;
    this.shared = shared;
    if (!shared) OPEN.add(this);
  }

  private TestServer(Process process, int port, Path dataDir) {
    this.app = null;
    this.process = process;
    this.port = port;
    this.dataDir = dataDir;
    this.shared = false;
    OPEN.add(this);
  }

  /**
   * The app as {@code java -cp ... lab.exactlyonce.Main} runs it, on a free port and a fresh data dir, configured by
   * the environment variables {@code env} (as a container is): waits until it serves, up to 60 s.
   */
  public static TestServer startProcess(Map<String, String> env) throws IOException {
    Path dataDir = Files.createTempDirectory("eolab-node");
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        TestJvm.C1_ONLY, "-cp", System.getProperty("java.class.path"), "lab.exactlyonce.Main").redirectErrorStream(true);
    builder.environment().put("ENGINE_LAB", "off"); // unless env asks: the engines' warm-up would take both cores
    builder.environment().putAll(env);
    builder.environment().put("PORT", "0");
    builder.environment().put("HOST", "127.0.0.1");
    builder.environment().put("DATA_DIR", dataDir.toString());
    Process process = builder.start();
    CompletableFuture<Integer> port = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          System.out.println("[node] " + line);
          Matcher m = SERVING.matcher(line);
          if (m.find()) port.complete(Integer.parseInt(m.group(1)));
        }
        port.completeExceptionally(new IllegalStateException("the node ended before serving: " + process.waitFor()));
      } catch (IOException | InterruptedException e) {
        port.completeExceptionally(e);
      }
    }, "node-output");
    reader.setDaemon(true);
    reader.start();
    try {
      return new TestServer(process, port.get(60, TimeUnit.SECONDS), dataDir);
    } catch (ExecutionException | TimeoutException | InterruptedException e) {
      process.destroyForcibly();
      throw new IllegalStateException("the node did not start: " + e.getMessage(), e);
    }
  }

  public static TestServer start() {
    return start(TestConfig.defaults());
  }

  /**
   * The app of {@code config}, with the quiz outputs this build's earlier test apps made (see SharedQuizOutputs). Its
   * sandbox runs in this JVM ({@link InProcessSandbox}): for tests of what features do with a run's answer. A test of
   * the sandbox itself, or of what only real workers show (confinement, killing a worker, queue caps), uses
   * {@link #startWithRealSandbox}.
   */
  public static TestServer start(Config config) {
    SharedQuizOutputs.seed(config.dataDir());
    return new TestServer(new App(config, InProcessSandbox::new), config.dataDir(), false);
  }

  /** The app of {@code config} with its real sandbox: worker JVMs under the host's confinement. */
  public static TestServer startWithRealSandbox(Config config) {
    SharedQuizOutputs.seed(config.dataDir());
    return new TestServer(new App(config), config.dataDir(), false);
  }

  /** The app of {@code config} on its data dir exactly as it is: for tests about what a data dir holds. */
  public static TestServer startOnDataDirAsIs(Config config) {
    return new TestServer(new App(config, InProcessSandbox::new), config.dataDir(), false);
  }

  /** An app that the test JVM's classes share (its sandbox in this JVM); only {@link TestApps} makes one. */
  static TestServer startShared(Config config) {
    SharedQuizOutputs.seed(config.dataDir());
    return new TestServer(new App(config, InProcessSandbox::new), config.dataDir(), true);
  }

  /** The apps tests started and have not closed (shared ones aside). */
  static List<TestServer> open() {
    return List.copyOf(OPEN);
  }


  /**
   * An app whose sandbox has {@code workers} workers, started with it and warm before this returns: for a class whose
   * tests run code from the first one on.
   */
  public static TestServer startWithSandbox(int workers) {
    return startWithRealSandbox(TestConfig.defaults().withSandbox(TestJvm.sandboxDefaults().withWorkers(workers)))
        .awaitSandbox();
  }

  public App app() {
    return app;
  }

  /**
   * Waits until the app's sandbox workers are ready and, when they started with the app, have run the shipped
   * snippets (so whether a shipped source is answered from those runs does not depend on timing); returns this
   * server. After 60 s it stops the app and fails the test.
   */
  public TestServer awaitSandbox() {
    boolean ready;
    try {
      ready = !(app.sandbox() instanceof Sandbox real) || real.awaitReady(Duration.ofSeconds(60));
      if (ready) app.warmedUp().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      close();
      throw new IllegalStateException("the shipped snippets did not run at the start within 60 s", e);
    }
    if (!ready) close();
    assertTrue(ready, "sandbox workers ready within 60 s");
    return this;
  }

  public String url(String path) {
    return "http://127.0.0.1:" + port + path;
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

  /** The port the app serves on (127.0.0.1). */
  public int port() {
    return port;
  }

  /** This server's origin, as a browser on one of its pages would send it. */
  public String origin() {
    return "http://127.0.0.1:" + port;
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

  /** Ends the app's process at once (SIGKILL): no request finishes, no stream is told. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
    OPEN.remove(this);
  }

  /**
   * Stops the app (for an in-process app the graceful stop, {@code App.stop()}); its data dir stays, for a test that
   * starts the app again where it was (the fork's temp folder, which holds it, goes when the fork ends). A shared app
   * is never stopped by a test: it stays up for the classes after this one.
   */
  @Override
  public void close() {
    if (shared || stopped) return;
    stopped = true;
    OPEN.remove(this);
    if (process != null) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    app.stop();
    SharedQuizOutputs.keep(dataDir);
  }

  /** Stops a shared app at the end of the test JVM's classes. */
  void closeShared() {
    if (!shared) throw new IllegalStateException("only a shared app is closed this way");
    app.stop();
  }
}
