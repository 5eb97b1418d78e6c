package lab.exactlyonce.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-address connection limit counts open connections only: every kind of close gives the place back, so an
 * address that opens connections one after another all day is never locked out, while as many open at once as the
 * limit still shut out the one past it. Hostile rows through real sockets, each from a loopback address of its own;
 * the {@code eolab_connections_open} gauge (read from 127.0.0.1, which counts that one scrape) shows what the server
 * still counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionCountTest {
  private static final int LIMIT = 8;
  private static final String SECRET = "correct-horse-battery-staple";
  private static final Duration NOTICED = Duration.ofSeconds(20);
  private static final Pattern OPEN_GAUGE = Pattern.compile("(?m)^eolab_connections_open ([0-9.]+)$");
  private static final Pattern STREAMS_GAUGE = Pattern.compile("(?m)^eolab_sse_connections ([0-9.]+)$");
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestServer server;
  /** The Host header this server's own pages would send (its port included, as the Origin check compares it). */
  private String host;
  private final List<Socket> sockets = new ArrayList<>();

  @BeforeAll
  void start() {
    Config config = TestConfig.defaults();
    config = config.withClassroom(config.classroom().withInstructorSecret(SECRET));
    // An idle timeout far longer than any row takes, so that only the heartbeat notices a dropped stream and no
    // held connection times out in the middle of a row; the idle-timeout row starts an app of its own.
    server = TestServer.start(config.withOps(config.ops().withClients(limits(60))));
    host = "127.0.0.1:" + server.port();
  }

  private static ClientLimits limits(int idleTimeoutSeconds) {
    return ClientLimits.defaults().withConnectionsPerAddress(LIMIT).withIdleTimeoutSeconds(idleTimeoutSeconds)
        .withStreams(600, LIMIT);
  }

  @AfterEach
  void closeSockets() {
    for (Socket s : sockets) closeQuietly(s);
    sockets.clear();
  }

  @AfterAll
  void stop() {
    server.close();
  }

  @Test
  void ten_times_the_limit_opened_and_closed_one_after_another_are_all_answered() throws Exception {
    for (int i = 0; i < 10 * LIMIT; i++) {
      Socket s = connectFrom("127.0.0.11");
      boolean serverCloses = i % 3 == 2;
      Answer answer = exchange(s, "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n"
          + (serverCloses ? "Connection: close\r\n" : "") + "\r\n");
      assertEquals(200, answer.status(), "connection " + (i + 1) + " of " + 10 * LIMIT + ": " + answer);
      if (i % 3 == 1) reset(s);
      else s.close();
      awaitCountedOpen(0);
    }
    assertAddressHasItsWholeShare("127.0.0.11");
  }

  @Test
  void the_connection_past_the_limit_is_refused_while_that_many_are_open_and_refusals_free_their_place()
      throws Exception {
    List<Socket> held = holdTheWholeShare("127.0.0.12");
    for (int i = 0; i < 3 * LIMIT; i++) {
      Socket extra = connectFrom("127.0.0.12");
      extra.setSoTimeout(30_000);
      String refusal = readUntilClosed(extra);
      assertTrue(refusal.startsWith("HTTP/1.1 503"), "refusal " + (i + 1) + ": " + refusal);
      assertTrue(refusal.contains("too many open connections from your address (the limit is " + LIMIT + ")"), refusal);
      extra.close();
      awaitCountedOpen(LIMIT);
    }
    // One of the held ones closes: exactly one place is free again, and the next connection gets it.
    held.get(0).close();
    awaitCountedOpen(LIMIT - 1);
    Socket next = connectFrom("127.0.0.12");
    assertEquals(200, exchange(next, "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n").status());
    for (Socket s : held) s.close();
    next.close();
    awaitCountedOpen(0);
    assertAddressHasItsWholeShare("127.0.0.12");
  }

  @Test
  void connections_the_server_closes_for_idleness_give_their_places_back() throws Exception {
    TestServer wide = server;
    Config config = TestConfig.defaults();
    try (TestServer idle = TestServer.start(config.withOps(config.ops().withClients(limits(5))))) {
      server = idle;
      host = "127.0.0.1:" + idle.port();
      holdTheWholeShare("127.0.0.13");
      // Nothing more is sent: the server closes each after its 5 s idle timeout.
      awaitCountedOpen(0);
      assertAddressHasItsWholeShare("127.0.0.13");
    } finally {
      server = wide;
      host = "127.0.0.1:" + wide.port();
    }
  }

  @Test
  void live_streams_opened_and_dropped_in_a_loop_do_not_leak() throws Exception {
    String instructor = cookieFrom(exchange(connectFrom("127.0.0.1"), request("POST", "/teach/login", null,
        "application/x-www-form-urlencoded", "secret=" + SECRET)), "eolab_instructor");
    JsonNode room = JSON.readTree(exchange(connectFrom("127.0.0.1"), request("POST", "/api/teach/classes", instructor,
        "application/json", "{\"name\":\"Churn\"}")).body());
    Answer joined = exchange(connectFrom("127.0.0.1"), request("POST", "/api/join", null, "application/json",
        "{\"code\":\"" + room.get("code").asText() + "\",\"nickname\":\"Kim\"}"));
    assertEquals(201, joined.status(), joined.toString());
    String student = cookieFrom(joined, "eolab_learner");
    String stream = "GET /api/classes/" + room.get("id").asText() + "/stream HTTP/1.1\r\nHost: " + host + "\r\n"
        + "Accept: text/event-stream\r\nCookie: " + student + "\r\n\r\n";

    // Three rounds of as many streams as the address may hold but one, 21 in all against a limit of 8: the first
    // round closed by the phone, the second reset by it, the third ended by the server when the class ends.
    for (int round = 0; round < 3; round++) {
      List<Socket> streams = new ArrayList<>();
      for (int i = 0; i < LIMIT - 1; i++) {
        Socket s = connectFrom("127.0.0.14");
        s.getOutputStream().write(stream.getBytes(StandardCharsets.UTF_8));
        s.setSoTimeout(30_000);
        String begun = readUntil(s.getInputStream(), "retry:");
        assertTrue(begun.startsWith("HTTP/1.1 200"), "round " + (round + 1) + ", stream " + (i + 1) + ": " + begun);
        streams.add(s);
      }
      if (round == 0) for (Socket s : streams) s.close();
      if (round == 1) for (Socket s : streams) reset(s);
      if (round == 2) {
        Answer ended = exchange(connectFrom("127.0.0.1"), request("POST", "/api/teach/classes/" + room.get("id").asText()
            + "/close", instructor, "application/json", "{}"));
        assertEquals(200, ended.status(), ended.toString());
        for (Socket s : streams) {
          assertTrue(readUntilClosed(s).contains("event: closed"), "the server told the stream the class closed");
        }
      }
      await("the dropped streams noticed").atMost(NOTICED).until(() -> gauge(STREAMS_GAUGE) == 0);
      awaitCountedOpen(0);
    }
    assertAddressHasItsWholeShare("127.0.0.14");
  }

  /** Opens as many connections from {@code address} as it may hold and has each answered (so each is counted). */
  private List<Socket> holdTheWholeShare(String address) throws IOException {
    List<Socket> held = new ArrayList<>();
    for (int i = 0; i < LIMIT; i++) {
      Socket s = connectFrom(address);
      assertEquals(200, exchange(s, "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n").status(), "held " + (i + 1));
      held.add(s);
    }
    awaitCountedOpen(LIMIT);
    return held;
  }

  /**
   * What the server counts for {@code address} is back to nothing: as many connections as the limit are served at
   * once, and the one past them is refused.
   */
  private void assertAddressHasItsWholeShare(String address) throws IOException {
    List<Socket> held = holdTheWholeShare(address);
    Socket past = connectFrom(address);
    past.setSoTimeout(30_000);
    assertTrue(readUntilClosed(past).startsWith("HTTP/1.1 503"), "the one past the limit is still refused");
    for (Socket s : held) s.close();
    past.close();
    awaitCountedOpen(0);
  }

  /** Waits until the server counts {@code n} open connections besides the scrape that asks. */
  private void awaitCountedOpen(int n) {
    await("the server counting " + n + " open connection(s)").atMost(NOTICED).pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10)).until(() -> gauge(OPEN_GAUGE) == n + 1);
  }

  private int gauge(Pattern pattern) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
      Answer scrape = exchange(s, "GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
      Matcher m = pattern.matcher(scrape.body());
      assertTrue(m.find(), "the gauge is in /metrics: " + scrape);
      return (int) Double.parseDouble(m.group(1));
    }
  }

  private String request(String method, String path, String cookie, String type, String body) {
    return method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nOrigin: " + server.origin() + "\r\n"
        + (cookie == null ? "" : "Cookie: " + cookie + "\r\n") + "Content-Type: " + type + "\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
  }

  private static String cookieFrom(Answer answer, String name) {
    Matcher m = Pattern.compile("(?im)^set-cookie: (" + name + "=[^;\r\n]+)").matcher(answer.head());
    assertTrue(m.find(), "a " + name + " cookie in " + answer);
    return m.group(1);
  }

  private Socket connectFrom(String local) throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.bind(new InetSocketAddress(local, 0));
    s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
    return s;
  }

  /** An HTTP answer: its status line and headers as text, and its body. */
  private record Answer(int status, String head, String body) {}

  /**
   * Sends {@code request} and reads one whole answer, by its Content-Length, its chunks, or else until the server
   * closes; the connection stays open unless the answer ends it.
   */
  private static Answer exchange(Socket s, String request) throws IOException {
    s.setSoTimeout(30_000);
    s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
    InputStream in = s.getInputStream();
    String head = readUntil(in, "\r\n\r\n");
    Matcher length = Pattern.compile("(?im)^content-length: (\\d+)").matcher(head);
    String body;
    if (length.find()) {
      body = new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.UTF_8);
    } else if (Pattern.compile("(?im)^transfer-encoding: chunked").matcher(head).find()) {
      ByteArrayOutputStream chunks = new ByteArrayOutputStream();
      for (int size; (size = Integer.parseInt(readUntil(in, "\r\n").strip(), 16)) > 0; readUntil(in, "\r\n")) {
        chunks.write(in.readNBytes(size));
      }
      readUntil(in, "\r\n");
      body = chunks.toString(StandardCharsets.UTF_8);
    } else {
      body = new String(in.readAllBytes(), StandardCharsets.UTF_8); // a body that ends with the connection
    }
    return new Answer(Integer.parseInt(head.substring(9, 12)), head, body);
  }

  /** Bytes until {@code marker} has been read (or the stream ends), one at a time so nothing past it is taken. */
  private static String readUntil(InputStream in, String marker) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      out.write(b);
      if (out.toString(StandardCharsets.UTF_8).endsWith(marker)) break;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Everything until the server closes the connection. */
  private static String readUntilClosed(Socket s) throws IOException {
    return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** Ends the connection with a TCP reset instead of an orderly close, as a client killed mid-stream does. */
  private static void reset(Socket s) throws IOException {
    s.setSoLinger(true, 0);
    s.close();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
