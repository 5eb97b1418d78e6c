package lab.exactlyonce.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client whose connection comes from a chosen loopback address such as 127.0.0.7, so one
 * process can act as many students (the server keys fairness on the remote address). The JDK's HttpClient cannot
 * bind a source address, and on Linux a connection to 127.0.0.N still comes from 127.0.0.1, so this binds the
 * socket itself. One keep-alive connection, one request at a time; not thread-safe.
 */
public final class LoopbackClient implements AutoCloseable {
  private final InetAddress from;
  private final InetSocketAddress server;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  /** What came back. */
  public record Response(int status, Map<String, String> headers, String body) {}

  public LoopbackClient(String fromAddress, String host, int port) throws IOException {
    this.from = InetAddress.getByName(fromAddress);
    this.server = new InetSocketAddress(InetAddress.getByName(host), port);
  }

  public Response post(String path, String contentType, String body) throws IOException {
    return post(path, contentType, body, Map.of());
  }

  /** A POST with extra request headers (such as {@code Cookie} or {@code Sec-Fetch-Site}). */
  public Response post(String path, String contentType, String body, Map<String, String> extraHeaders)
      throws IOException {
    byte[] payload = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder extra = new StringBuilder();
    extraHeaders.forEach((name, value) -> extra.append(name).append(": ").append(value).append("\r\n"));
    String head = "POST " + path + " HTTP/1.1\r\nHost: " + server.getHostString() + ":" + server.getPort()
        + "\r\nContent-Type: " + contentType + "\r\nContent-Length: " + payload.length
        + "\r\nAccept: application/json\r\n" + extra + "\r\n";
    return exchange(head.getBytes(StandardCharsets.US_ASCII), payload);
  }

  public Response get(String path) throws IOException {
    String head = "GET " + path + " HTTP/1.1\r\nHost: " + server.getHostString() + ":" + server.getPort() + "\r\n\r\n";
    return exchange(head.getBytes(StandardCharsets.US_ASCII), new byte[0]);
  }

  private Response exchange(byte[] head, byte[] payload) throws IOException {
    for (int attempt = 0; ; attempt++) {
      boolean fresh = socket == null;
      try {
        connectIfNeeded();
        out.write(head);
        out.write(payload);
        out.flush();
        return read();
      } catch (IOException e) {
        close();
        if (fresh || attempt > 0) throw e;   // a stale keep-alive connection: try once on a new one
      }
    }
  }

  private void connectIfNeeded() throws IOException {
    if (socket != null) return;
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.bind(new InetSocketAddress(from, 0));
    socket.connect(server, 5_000);
    socket.setSoTimeout(60_000);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  private Response read() throws IOException {
    String statusLine = line();
    if (statusLine == null) throw new IOException("connection closed before a response");
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    var headers = new LinkedHashMap<String, String>();
    String line;
    while ((line = line()) != null && !line.isEmpty()) {
      int colon = line.indexOf(':');
      // a repeated header (Set-Cookie) keeps every value, one per line
      headers.merge(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim(),
          (a, b) -> a + "\n" + b);
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      while (true) {
        int size = Integer.parseInt(line().split(";")[0].trim(), 16);
        if (size == 0) {
          while ((line = line()) != null && !line.isEmpty()) { /* trailers */ }
          break;
        }
        body.write(in.readNBytes(size));
        line();
      }
    } else if (headers.containsKey("content-length")) {
      body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
    } else {
      body.write(in.readAllBytes());
      close();
    }
    if ("close".equalsIgnoreCase(headers.get("connection"))) close();
    return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
  }

  private String line() throws IOException {
    StringBuilder sb = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') {
        int n = sb.length();
        if (n > 0 && sb.charAt(n - 1) == '\r') sb.setLength(n - 1);
        return sb.toString();
      }
      sb.append((char) c);
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    socket = null;
  }
}
