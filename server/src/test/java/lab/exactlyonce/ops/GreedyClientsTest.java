package lab.exactlyonce.ops;

import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP server attacked by clients that are slow or greedy on purpose, each from a loopback address of its own
 * (127.0.0.x), while an ordinary client on 127.0.0.1 must still be served. What must not happen: the ordinary
 * client waiting behind them, a trickled body holding a thread for long, or one address holding every socket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GreedyClientsTest {
  private static final Duration PROMPT = Duration.ofSeconds(5);
  private TestServer server;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeAll
  void start() {
    Config config = TestConfig.defaults();
    ClientLimits limits = ClientLimits.defaults().withConnectionsPerAddress(300).withIdleTimeoutSeconds(10)
        .withUploadSeconds(3);
    server = TestServer.start(config.withOps(config.ops().withClients(limits)));
  }

  @AfterAll
  void stop() {
    for (Socket s : sockets) closeQuietly(s);
    server.close();
  }

  @Test
  void hundreds_of_trickled_uploads_from_one_address_do_not_keep_others_from_the_lesson() throws Exception {
    List<Socket> slow = new ArrayList<>();
    for (int i = 0; i < 280; i++) {
      Socket s = connectFrom("127.0.0.2");
      // A body the route would take (well under its limit), then nothing: each waits for the rest of it.
      write(s, "POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000"
          + "\r\n\r\n{\"source\": \"");
      slow.add(s);
    }
    for (int round = 0; round < 3; round++) {
      for (Socket s : slow) trickle(s);
      assertPrompt("/healthz");
      assertPrompt("/lessons/exactly-once");
    }
    // The uploads that fall under the minimum rate are cut off, which frees their threads for good.
    int cut = 0;
    for (Socket s : slow) {
      s.setSoTimeout(15_000);
      String answer = readAll(s);
      if (answer.startsWith("HTTP/1.1 408") && (answer.contains("the request body arrived too slowly")
          || answer.contains("the request body stopped arriving before it was complete"))) cut++;
    }
    assertEquals(slow.size(), cut, "every trickled or stalled upload is ended by the server with a 408 that says why");
  }

  @Test
  void a_body_declared_longer_than_any_route_takes_is_refused_before_it_is_sent() throws Exception {
    Socket s = connectFrom("127.0.0.3");
    write(s, "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50000000"
        + "\r\n\r\n");
    s.setSoTimeout(5_000);
    String answer = readAll(s);
    assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
    assertTrue(answer.contains("the request body is 50000000 bytes; no request here takes more than 393216 bytes"), answer);
  }

  @Test
  void one_address_cannot_hold_every_connection() throws Exception {
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < 301; i++) held.add(connectFrom("127.0.0.4"));
    // The server accepts side by side, so which of the 301 is the one too many is its choice: exactly one is refused.
    List<String> refusals = new ArrayList<>();
    await("a connection over the limit refused").atMost(PROMPT).pollInSameThread().pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> {
          for (Socket s : held) {
            if (s.getInputStream().available() > 0) {
              s.setSoTimeout(2_000);
              refusals.add(readAll(s));
            }
          }
          return !refusals.isEmpty();
        });
    assertEquals(1, refusals.size(), "one connection over the limit is refused");
    assertTrue(refusals.get(0).startsWith("HTTP/1.1 503"), refusals.get(0));
    assertTrue(refusals.get(0).contains("too many open connections from your address (the limit is 300)"), refusals.get(0));
    assertPrompt("/healthz");
    Socket other = connectFrom("127.0.0.5");
    write(other, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    other.setSoTimeout(5_000);
    assertTrue(readAll(other).startsWith("HTTP/1.1 200"), "another address still gets in");
    for (Socket s : held) closeQuietly(s);
  }

  private void assertPrompt(String path) throws Exception {
    HttpResponse<String> res = HttpClient.newBuilder().connectTimeout(PROMPT).build().send(
        HttpRequest.newBuilder(URI.create(server.url(path))).timeout(PROMPT).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, res.statusCode(), path);
  }

  private Socket connectFrom(String local) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(local, 0));
    s.connect(new InetSocketAddress("127.0.0.1", server.app().port()), 5_000);
    sockets.add(s);
    return s;
  }

  /** One more byte of a slow upload; the server may have cut it off already, as it should. */
  private static void trickle(Socket s) {
    try {
      write(s, "x");
    } catch (IOException cutOff) {
      // the server ended this upload
    }
  }

  private static void write(Socket s, String text) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** What the server wrote until it closed the connection or went quiet; "" when it said nothing. */
  private static String readAll(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    StringBuilder out = new StringBuilder();
    byte[] buffer = new byte[8192];
    try {
      int n;
      while ((n = in.read(buffer)) > 0) out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
    } catch (SocketTimeoutException e) {
      return out.toString();
    } catch (IOException e) {
      return out.toString(); // reset by the server
    }
    return out.toString();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
