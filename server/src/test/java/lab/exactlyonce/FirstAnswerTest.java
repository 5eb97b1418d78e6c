package lab.exactlyonce;

import lab.exactlyonce.sandbox.InProcessSandbox;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.SandboxService;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The page answers before the slow work of a start is done: the server listens first, and the sandbox's self-check,
 * its workers and their warm-up follow, with {@code /healthz} saying where they are.
 */
class FirstAnswerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void pages_and_healthz_answer_while_the_sandbox_is_still_starting() throws Exception {
    CountDownLatch sandboxMayStart = new CountDownLatch(1);
    Config config = TestConfig.defaults().withSandbox(TestJvm.sandboxDefaults().withWorkers(1));
    App app = new App(config, settings -> new HeldStart(new InProcessSandbox(settings), sandboxMayStart));
    CompletableFuture<Void> started = new CompletableFuture<>();
    Thread starter = new Thread(() -> {
      try {
        app.start();
        started.complete(null);
      } catch (RuntimeException e) {
        started.completeExceptionally(e);
      }
    }, "app-start");
    starter.start();
    try {
      int port = app.listening().get(60, TimeUnit.SECONDS);
      assertEquals(200, get(port, "/healthz").statusCode());
      assertEquals("{\"status\":\"ok\",\"sandboxConfinement\":\"unchecked\",\"sandboxWorkers\":\"starting\","
          + "\"engineLab\":\"off\"}", get(port, "/healthz").body());
      assertEquals(200, get(port, "/lessons/exactly-once").statusCode());
      assertFalse(started.isDone(), "the sandbox was still starting while those answered");

      sandboxMayStart.countDown();
      started.get(60, TimeUnit.SECONDS);
      await("the workers warm").atMost(Duration.ofSeconds(120)).pollDelay(Duration.ZERO)
          .until(() -> get(port, "/healthz").body().contains("\"sandboxWorkers\":\"ready\""));
    } finally {
      sandboxMayStart.countDown();
      starter.join(60_000);
      app.stop();
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A sandbox whose start (the self-check and the workers' launch) waits until the test lets it go on. */
  private record HeldStart(InProcessSandbox inner, CountDownLatch mayStart) implements SandboxService {
    @Override
    public SandboxService start() {
      try {
        mayStart.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      inner.start();
      return this;
    }

    @Override
    public String confinementLevel() {
      return mayStart.getCount() > 0 ? "unchecked" : inner.confinementLevel();
    }

    @Override
    public ConfinementReport confinement() {
      return inner.confinement();
    }

    @Override
    public CompletableFuture<RunResult> submit(RunRequest request) {
      return inner.submit(request);
    }

    @Override
    public SandboxLimits limits() {
      return inner.limits();
    }

    @Override
    public void onFinished(Consumer<RunResult> listener) {
      inner.onFinished(listener);
    }

    @Override
    public int waitingRuns() {
      return inner.waitingRuns();
    }

    @Override
    public int busyWorkers() {
      return inner.busyWorkers();
    }

    @Override
    public int workers() {
      return inner.workers();
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
