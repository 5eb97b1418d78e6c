package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestServer;
import lab.exactlyonce.ops.ClientLimits;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static lab.exactlyonce.classroom.Client.SECRET;
import static lab.exactlyonce.classroom.Client.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live streams are shared out: one learner cookie cannot hold more than its few tabs' worth, one address no more
 * than a class's worth, however fast or side by side they are opened; a refusal says why.
 */
class StreamLimitsTest {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static TestServer start(int perAddress, int perLearner) {
    Config config = Client.config();
    return TestServer.start(config.withOps(config.ops().withClients(ClientLimits.defaults().withStreams(perAddress, perLearner))));
  }

  /** Opens the student stream of class {@code id}; the response with its body still streaming. */
  private static HttpResponse<InputStream> open(TestServer server, Client who, String id) throws Exception {
    return openAsync(server, who, id).get(10, TimeUnit.SECONDS);
  }

  private static CompletableFuture<HttpResponse<InputStream>> openAsync(TestServer server, Client who, String id) {
    return HTTP.sendAsync(HttpRequest.newBuilder(URI.create(server.url("/api/classes/" + id + "/stream")))
        .header("Cookie", who.cookieHeader()).header("Accept", "text/event-stream").GET().build(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  @Test
  void one_learner_gets_a_few_streams_and_a_clear_429_past_them() throws Exception {
    try (TestServer server = start(600, 2)) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Tabs\"}"));
      String id = room.get("id").asText();
      Client kim = Client.student(server, room.get("code").asText(), "Kim");
      List<HttpResponse<InputStream>> open = new ArrayList<>();
      open.add(open(server, kim, id));
      open.add(open(server, kim, id));
      assertEquals(200, open.get(0).statusCode());
      assertEquals(200, open.get(1).statusCode());
      HttpResponse<InputStream> third = open(server, kim, id);
      assertEquals(429, third.statusCode());
      assertEquals("{\"error\":\"you have 2 live streams open already (the limit is 2): close another tab of this page"
          + " first\"}", new String(third.body().readAllBytes(), StandardCharsets.UTF_8));
      Client lee = Client.student(server, room.get("code").asText(), "Lee");
      HttpResponse<InputStream> other = open(server, lee, id);
      assertEquals(200, other.statusCode(), "another learner is not affected");
      open.add(other);
      for (HttpResponse<InputStream> r : open) r.body().close();
    }
  }

  @Test
  void streams_opened_side_by_side_stay_within_the_limits() throws Exception {
    try (TestServer server = start(600, 3)) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"Burst\"}"));
      String id = room.get("id").asText();
      Client kim = Client.student(server, room.get("code").asText(), "Kim");
      List<CompletableFuture<HttpResponse<InputStream>>> burst = new ArrayList<>();
      for (int i = 0; i < 40; i++) burst.add(openAsync(server, kim, id));
      int live = 0;
      for (CompletableFuture<HttpResponse<InputStream>> f : burst) {
        HttpResponse<InputStream> r = f.get(10, TimeUnit.SECONDS);
        if (r.statusCode() == 429) continue;
        assertEquals(200, r.statusCode());
        // Past the limit a stream that began side by side with others ends at once with an error event.
        String first = firstEvent(r.body());
        if (!first.startsWith("event: error")) live++;
        else assertTrue(first.contains("live streams open already"), first);
      }
      assertEquals(3, live, "at most the learner's share stays open");
      assertEquals(3, server.app().ops().liveStreams().count());
    }
  }

  @Test
  void one_address_gets_a_classes_worth_of_streams() throws Exception {
    try (TestServer server = start(3, 6)) {
      Client teacher = Client.instructor(server, SECRET);
      JsonNode room = json(teacher.post("/api/teach/classes", "{\"name\":\"NAT\"}"));
      String id = room.get("id").asText();
      // A classmate asking for streams where there are none (or being refused one) holds no share of the address.
      for (int i = 0; i < 20; i++) {
        HTTP.send(HttpRequest.newBuilder(URI.create(server.url("/healthz"))).header("Accept", "text/event-stream").GET()
            .build(), HttpResponse.BodyHandlers.discarding());
        open(server, new Client(server), id).body().close();
      }
      List<HttpResponse<InputStream>> open = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        HttpResponse<InputStream> r = open(server, Client.student(server, room.get("code").asText(), "S" + i), id);
        assertEquals(200, r.statusCode());
        open.add(r);
      }
      HttpResponse<InputStream> fourth = open(server, Client.student(server, room.get("code").asText(), "S4"), id);
      assertEquals(429, fourth.statusCode());
      assertTrue(new String(fourth.body().readAllBytes(), StandardCharsets.UTF_8)
          .contains("your network address has 3 live streams open already (the limit is 3)"));
      for (HttpResponse<InputStream> r : open) r.body().close();
    }
  }

  /** The stream's first event or comment after the retry hint, as "event: name\ndata: ..." text. */
  private static String firstEvent(InputStream in) throws Exception {
    StringBuilder text = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      text.append((char) c);
      String s = text.toString();
      if (s.contains("event:") && s.endsWith("\n\n")) break;
      if (s.contains(": ") && !s.contains("event:") && s.endsWith("\n\n") && !s.startsWith("retry:")) break;
    }
    in.close();
    String s = text.toString();
    return s.startsWith("retry:") ? s.substring(s.indexOf("\n\n") + 2) : s;
  }
}
