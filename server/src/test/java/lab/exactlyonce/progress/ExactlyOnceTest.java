package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static lab.exactlyonce.progress.LearnerClient.eventJson;
import static lab.exactlyonce.progress.LearnerClient.json;
import static lab.exactlyonce.progress.LearnerClient.newId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Retries, concurrency and restarts: every event is stored once and always answered with the original response. */
class ExactlyOnceTest {

  @Test
  void fifty_concurrent_sends_of_one_event_store_one_row_and_get_identical_responses() throws Exception {
    try (TestServer server = TestServer.start()) {
      var learner = new LearnerClient(server);
      assertEquals(200, learner.event(newId(), "section.read", "guarantees", null).statusCode()); // makes the learner
      String id = newId();
      int senders = 50;
      ExecutorService pool = Executors.newFixedThreadPool(senders);
      try {
        var ready = new CountDownLatch(senders);
        var go = new CountDownLatch(1);
        var futures = new ArrayList<Future<HttpResponse<String>>>();
        for (int i = 0; i < senders; i++) {
          futures.add(pool.submit(() -> {
            var client = new LearnerClient(server, learner.cookie());
            ready.countDown();
            go.await();
            return client.event(id, "self.rating", "L2", "{\"rating\":3}");
          }));
        }
        ready.await();
        go.countDown();
        var bodies = new HashSet<String>();
        for (var future : futures) {
          HttpResponse<String> response = future.get();
          assertEquals(200, response.statusCode(), response.body());
          bodies.add(response.body());
        }
        assertEquals(1, bodies.size(), "every sender got the same response: " + bodies);
      } finally {
        pool.shutdownNow();
      }
      JsonNode events = json(learner.get("/api/me/export").body()).get("events");
      assertEquals(2, events.size(), events.toString());
      assertEquals(id, events.get(1).get("id").asText());
      assertEquals(3, learner.progress().at("/rungs/L2/rating").asInt());
    }
  }

  /**
   * The acknowledgement is lost: the server stores the event, but the client never reads the response before the app
   * stops. A new app on the same data directory gets the retry: one event, and the original response.
   */
  @Test
  void an_event_whose_acknowledgement_was_lost_in_a_restart_is_stored_once_and_answered_as_first_time() throws Exception {
    Config config = TestConfig.defaults();
    String id = newId();
    String cookie;
    JsonNode storedBeforeRestart;
    try (TestServer first = TestServer.start(config)) {
      var learner = new LearnerClient(first);
      learner.event(newId(), "section.read", "guarantees", null);
      cookie = learner.cookie();
      String body = eventJson(id, "ladder.reveal", "L4", null);
      try (Socket socket = new Socket("127.0.0.1", first.app().port())) {
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:" + first.app().port() + "\r\nOrigin: " + first.origin()
            + "\r\nContent-Type: application/json\r\nCookie: " + cookie + "\r\nContent-Length: "
            + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
        out.flush();
        storedBeforeRestart = awaitEvent(learner, id);
        // the client never reads the response: the app goes away with the acknowledgement unread
      }
    }
    try (TestServer second = TestServer.start(config)) {
      var learner = new LearnerClient(second, cookie);
      HttpResponse<String> retry = learner.event(id, "ladder.reveal", "L4", null);

      assertEquals(200, retry.statusCode(), retry.body());
      JsonNode response = json(retry.body());
      assertEquals(storedBeforeRestart.get("recordedAt"), response.get("recordedAt"));
      assertEquals(id, response.get("id").asText());
      JsonNode events = json(learner.get("/api/me/export").body()).get("events");
      assertEquals(2, events.size(), events.toString());
      assertTrue(learner.progress().at("/rungs/L4/revealed").asBoolean());
    }
  }

  private static JsonNode awaitEvent(LearnerClient learner, String id) {
    return await("event " + id + " stored").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20)).until(() -> {
          for (JsonNode event : json(learner.get("/api/me/export").body()).get("events")) {
            if (event.get("id").asText().equals(id)) return event;
          }
          return null;
        }, Objects::nonNull);
  }

  @Test
  void the_learner_cookie_outlives_a_restart() {
    Config config = TestConfig.defaults();
    String cookie;
    try (TestServer first = TestServer.start(config)) {
      var learner = new LearnerClient(first);
      learner.event(newId(), "map.node", "sink", null);
      cookie = learner.cookie();
    }
    try (TestServer second = TestServer.start(config)) {
      assertEquals(List.of("sink"), EventRoutesTest.names(new LearnerClient(second, cookie).progress().get("nodesExplored")));
    }
  }
}
