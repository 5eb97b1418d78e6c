package lab.exactlyonce.ops;

import io.javalin.Javalin;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import lab.exactlyonce.bench.SseHub;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stop sequence App uses ({@link Operations#beginShutdown} then {@code javalin.stop()}), on a server with one
 * live stream and one slow request: the slow request finishes, the stream ends, new connections are refused, and
 * the stream's client reconnects by itself to a server restarted on the same port.
 */
class GracefulShutdownTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** A server whose {@code /slow} answers once {@code release} is counted down: a request in flight for as long as the test wants. */
  private static Javalin server(Operations ops, int port, String name, CountDownLatch slowStarted, CountDownLatch release) {
    return Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.jetty.host = "127.0.0.1";
      ops.configure(cfg);
      cfg.routes.sse("/live", client -> {
        ops.liveStreams().add(client);
        client.keepAlive();
        client.sendEvent("hello", name, name);
      });
      cfg.routes.get("/slow", ctx -> {
        slowStarted.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("the test never let /slow finish");
        ctx.result("finished");
      });
    }).start(port);
  }

  @Test
  void stop_finishes_in_flight_requests_ends_streams_and_clients_reconnect_after_restart() throws Exception {
    Operations firstOps = new Operations(OpsSettings.defaults().withRequestLog(false));
    CountDownLatch slowStarted = new CountDownLatch(1);
    CountDownLatch slowMayFinish = new CountDownLatch(1);
    Javalin first = server(firstOps, 0, "first", slowStarted, slowMayFinish);
    int port = first.port();

    List<SseHub.Event> events = new CopyOnWriteArrayList<>();
    CountDownLatch helloFromSecond = new CountDownLatch(1);
    try (SseHub hub = new SseHub(new InetSocketAddress("127.0.0.1", port), (stream, event) -> {
      events.add(event);
      if (event.data().equals("second")) helloFromSecond.countDown();
    })) {
      SseHub.Stream stream = hub.open(InetAddress.getByName("127.0.0.1"), "/live", Map.of());
      await("the first server's hello").until(() -> events.size() == 1);
      assertEquals(1, firstOps.liveStreams().count());
      assertTrue(stream.retryMillis() >= LiveStreams.MIN_RETRY_MILLIS && stream.retryMillis() < LiveStreams.MAX_RETRY_MILLIS,
          "retry hint " + stream.retryMillis());   // the client's default is 3000: this one came from the server

      CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/slow")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(slowStarted.await(5, TimeUnit.SECONDS));

      CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
        firstOps.beginShutdown(first);
        first.stop();
      });
      await("the live stream to end").until(() -> !stream.isOpen());
      assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(),
          "a stopping server must refuse new connections while it drains");
      assertFalse(slow.isDone(), "the slow request was cut short");
      assertFalse(stopping.isDone(), "the stop did not wait for the request in flight");

      slowMayFinish.countDown();
      HttpResponse<String> slowResponse = slow.get(5, TimeUnit.SECONDS);
      assertEquals(200, slowResponse.statusCode());
      assertEquals("finished", slowResponse.body());
      stopping.get(5, TimeUnit.SECONDS); // well within the 10 s drain timeout: the stop ended with the last request

      // The client keeps retrying (connection refused) until a new server listens on the same port. This wait proves
      // that nothing happens: past its longest retry delay, the client has not given up.
      Thread.sleep(LiveStreams.MAX_RETRY_MILLIS + 500L);
      Operations secondOps = new Operations(OpsSettings.defaults().withRequestLog(false));
      Javalin second = server(secondOps, port, "second", new CountDownLatch(1), new CountDownLatch(0));
      try {
        assertTrue(helloFromSecond.await(LiveStreams.MAX_RETRY_MILLIS + 3000L, TimeUnit.MILLISECONDS),
            "the client did not reconnect: " + events);
        assertEquals(2, stream.connects());
        assertEquals("second", stream.lastEventId());
        assertEquals(1, secondOps.liveStreams().count());
      } finally {
        secondOps.beginShutdown(second);
        second.stop();
        secondOps.close();
        firstOps.close();
      }
    }
  }

  @Test
  void a_stream_opened_while_stopping_is_ended_at_once() throws Exception {
    Operations ops = new Operations(OpsSettings.defaults().withRequestLog(false));
    ops.liveStreams().closeAll();
    Javalin server = server(ops, 0, "late", new CountDownLatch(1), new CountDownLatch(0));
    try {
      HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/live"))
          .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, res.statusCode());
      assertTrue(res.body().startsWith("retry: "), res.body());
      assertTrue(res.body().contains(": server restarting; reconnect\n"), res.body());
    } finally {
      server.stop();
      ops.close();
    }
  }

  @Test
  void a_client_that_went_away_is_noticed_by_the_heartbeat_and_no_longer_counted() throws Exception {
    var registry = new SimpleMeterRegistry();
    LiveStreams streams = new LiveStreams(registry, ClientLimits.defaults(), 200);
    Operations ops = new Operations(OpsSettings.defaults().withRequestLog(false));
    Javalin server = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.jetty.host = "127.0.0.1";
      ops.configure(cfg); // the app's HTTP set-up, whose request threads end with it
      cfg.routes.sse("/live", client -> {
        streams.add(client);
        client.keepAlive();
        client.sendEvent("hello", "x");
      });
    }).start(0);
    try (SseHub hub = new SseHub(new InetSocketAddress("127.0.0.1", server.port()), (stream, event) -> { })) {
      SseHub.Stream stream = hub.open(InetAddress.getByName("127.0.0.1"), "/live", Map.of());
      await("the stream to open").until(() -> streams.count() == 1 && stream.isOpen());
      assertEquals(1.0, registry.get("eolab.sse.connections").gauge().value());
      stream.close();
      await("the heartbeat to notice the closed client").until(() -> streams.count() == 0);
      assertEquals(0.0, registry.get("eolab.sse.connections").gauge().value());
    } finally {
      streams.stop();
      server.stop();
      ops.close();
    }
  }

  /** A wait for {@code what}, checked every 20 ms from the start; fails after 10 s. */
  private static ConditionFactory await(String what) {
    return Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20));
  }

}
