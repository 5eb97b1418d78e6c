package lab.exactlyonce.ops;

import lab.exactlyonce.ServerTest;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One HTTP/1.1 connection carrying request after request, as browsers and HTTP clients keep them: a route that answers
 * before the request's body has arrived (a refusal needs no body) must still leave the connection able to take the
 * next request, or a client that sent it there gets no answer at all.
 */
class KeepAliveTest extends ServerTest {

  /** The status line and headers of one answer, and its body as declared by Content-Length. */
  private record Answer(String statusLine, List<String> headers, String body) {}

  private static Answer read(BufferedReader in) throws IOException {
    String status = in.readLine();
    if (status == null) return null;
    List<String> headers = new ArrayList<>();
    int length = 0;
    for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
      headers.add(line.toLowerCase());
      if (line.toLowerCase().startsWith("content-length:")) length = Integer.parseInt(line.substring(15).trim());
    }
    char[] body = new char[length];
    int got = 0;
    while (got < length) got += in.read(body, got, length - got);
    return new Answer(status, headers, new String(body));
  }

  /** One connection to the app, sending text as it is and reading answers. */
  private record Connection(Socket socket, BufferedReader in) implements AutoCloseable {
    static Connection to(int port) throws IOException {
      Socket socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(10_000);
      return new Connection(socket,
          new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)));
    }

    void send(String text) throws IOException {
      OutputStream out = socket.getOutputStream();
      out.write(text.getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void a_body_that_arrives_after_the_route_answered_leaves_the_connection_open_for_the_next_request() throws Exception {
    try (Connection c = Connection.to(server.port())) {
      // Not signed in as the instructor: refused without reading the body, which is not sent yet.
      c.send("POST /api/teach/classes/some-class/close HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + server.origin()
          + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n");
      // A slow client: its body comes a moment after its headers, by when the route could have answered already.
      Thread.sleep(300);
      c.send("{}" + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

      Answer first = read(c.in());
      assertTrue(first.statusLine().startsWith("HTTP/1.1 4"), first.toString());
      assertFalse(first.headers().contains("connection: close"), "a refusal that kept the connection: " + first);
      Answer second = read(c.in());
      assertTrue(second != null && second.statusLine().equals("HTTP/1.1 200 OK"), "the next request on it: " + second);
      assertTrue(second.body().startsWith("{\"status\":\"ok\""), second.body());
    }
  }

  @Test
  void a_body_declared_over_the_limit_is_refused_and_the_connection_ends_saying_so() throws Exception {
    try (Connection c = Connection.to(server.port())) {
      c.send("POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: " + server.origin()
          + "\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n");
      Answer refusal = read(c.in());
      assertEquals("HTTP/1.1 413 Payload Too Large", refusal.statusLine(), refusal.toString());
      assertTrue(refusal.headers().contains("connection: close"), refusal.toString());
      assertEquals(null, c.in().readLine(), "the server ended the connection");
    }
  }
}
