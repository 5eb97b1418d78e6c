package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import lab.exactlyonce.TestJvm;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;

import static lab.exactlyonce.progress.LearnerClient.eventJson;
import static lab.exactlyonce.progress.LearnerClient.json;
import static lab.exactlyonce.progress.LearnerClient.newId;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The app really killed (SIGKILL, no shutdown hook, no pool close) in a separate JVM, between a write and its
 * acknowledgement and right after an acknowledgement; a new app on the same data directory loses nothing and
 * doubles nothing.
 */
@Tag("sandbox")
class KillRestartTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<Process> started = new ArrayList<>();
  private Path dataDir;
  private int port;
  private String cookie;

  @AfterEach
  void killLeftovers() {
    for (Process p : started) kill(p);
  }

  @Test
  void a_killed_app_loses_no_acknowledged_event_and_a_retry_after_restart_is_answered_with_the_original() throws Exception {
    dataDir = Files.createTempDirectory("eolab-kill");
    Process first = startApp();
    HttpResponse<String> created = post(eventJson(newId(), "section.read", "guarantees", null));
    assertEquals(200, created.statusCode(), created.body());
    cookie = created.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

    // 1. written, acknowledgement never read
    String unacknowledged = newId();
    String body = eventJson(unacknowledged, "ladder.reveal", "L5", null);
    JsonNode stored;
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /api/events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: http://127.0.0.1:" + port
          + "\r\nContent-Type: application/json\r\nCookie: " + cookie + "\r\nContent-Length: "
          + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
      out.flush();
      stored = awaitStored(unacknowledged);
      // 2. acknowledged, then the process dies at once
      String acknowledged = newId();
      HttpResponse<String> ack = post(eventJson(acknowledged, "self.rating", "L5", "{\"rating\":2}"));
      assertEquals(200, ack.statusCode(), ack.body());
      kill(first);

      Process second = startApp();
      HttpResponse<String> retry = post(body);
      assertEquals(200, retry.statusCode(), retry.body());
      assertEquals(stored.get("recordedAt"), json(retry.body()).get("recordedAt"));
      HttpResponse<String> ackRetry = post(eventJson(acknowledged, "self.rating", "L5", "{\"rating\":2}"));
      assertEquals(ack.body(), ackRetry.body());

      JsonNode events = export().get("events");
      assertEquals(3, events.size(), events.toString());
      assertEquals(List.of("section.read", "ladder.reveal", "self.rating"), EventRoutesTest.names(events, "type"));
      kill(second);
    }
  }

  private Process startApp() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path log = dataDir.resolve("app-" + started.size() + ".log");
    Process process = new ProcessBuilder(java, TestJvm.C1_ONLY, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        "lab.exactlyonce.Main", "--host", "127.0.0.1", "--port", "0", "--data-dir", dataDir.toString(),
        "--sandbox-workers", "1", "--engine-lab", "off")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    started.add(process);
    // The kernel picks the port (0) and the app says which: a port probed free and then bound could be taken between.
    await("the app answering /healthz").atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(100)).until(() -> {
          if (!process.isAlive()) throw new AssertionError("the app exited: " + Files.readString(log));
          Matcher serving = TestServer.SERVING.matcher(Files.readString(log));
          if (!serving.find()) return false;
          port = Integer.parseInt(serving.group(1));
          try {
            return http.send(HttpRequest.newBuilder(URI.create(base() + "/healthz")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
          } catch (IOException notYet) {
            return false; // still starting
          }
        });
    return process;
  }

  /** SIGKILL the app and whatever it started (sandbox workers), by process id. */
  private static void kill(Process process) {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String base() {
    return "http://127.0.0.1:" + port;
  }

  private HttpResponse<String> post(String json) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(base() + "/api/events"))
        .header("Content-Type", "application/json").header("Origin", base())
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (cookie != null) request.header("Cookie", cookie);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode export() throws Exception {
    return json(http.send(HttpRequest.newBuilder(URI.create(base() + "/api/me/export")).header("Cookie", cookie).build(),
        HttpResponse.BodyHandlers.ofString()).body());
  }

  private JsonNode awaitStored(String id) {
    return await("event " + id + " stored").atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20)).until(() -> {
          for (JsonNode event : export().get("events")) if (event.get("id").asText().equals(id)) return event;
          return null;
        }, Objects::nonNull);
  }
}
