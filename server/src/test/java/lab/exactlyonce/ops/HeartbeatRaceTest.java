package lab.exactlyonce.ops;

import io.javalin.Javalin;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live stream's heartbeat and its events come from different threads (the heartbeat's, and whichever request
 * pushes a question). Neither may land inside the other or end the stream: a student whose stream broke on a
 * heartbeat misses the question pushed at that moment.
 */
class HeartbeatRaceTest {
  private static final int EVENTS = 3_000;

  @Test
  void events_pushed_while_the_heartbeat_beats_every_millisecond_arrive_whole_and_in_order() throws Exception {
    LiveStreams streams = new LiveStreams(new SimpleMeterRegistry(), ClientLimits.defaults(), 1);
    Operations ops = new Operations(OpsSettings.defaults().withRequestLog(false));
    CountDownLatch streaming = new CountDownLatch(1);
    Javalin server = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.jetty.host = "127.0.0.1";
      ops.configure(cfg);
      cfg.routes.sse("/live", client -> {
        streams.add(client);
        client.keepAlive();
        streaming.countDown();
        // As the classroom's feed pushes: holding the client's lock while it writes an event.
        String payload = "x".repeat(2_000);
        for (int i = 0; i < EVENTS && !client.terminated(); i++) {
          synchronized (client) {
            client.sendEvent("question", i + ":" + payload);
          }
        }
        client.close();
      });
    }).start(0);
    try {
      HttpResponse<InputStream> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/live"))
              .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(60)).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(200, response.statusCode());
      assertTrue(streaming.await(10, TimeUnit.SECONDS), "the stream began");
      List<String> broken = new ArrayList<>();
      int received = 0;
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (line.startsWith("data: ")) {
            String expected = received + ":" + "x".repeat(2_000);
            if (!line.equals("data: " + expected)) broken.add(line.substring(0, Math.min(line.length(), 80)));
            received++;
          } else if (!line.isEmpty() && !line.startsWith(":") && !line.startsWith("event: question")
              && !line.startsWith("retry: ")) {
            broken.add(line.substring(0, Math.min(line.length(), 80)));
          }
        }
      }
      assertEquals(List.of(), broken, "lines that are not whole events, comments or the retry hint");
      assertEquals(EVENTS, received, "every event arrived, on one stream that never broke");
    } finally {
      streams.stop();
      server.stop();
      ops.close();
    }
  }
}
