package lab.exactlyonce.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Many server-sent-event streams on one thread: non-blocking sockets on one {@link Selector}, each connection bound
 * to a chosen source address (127.0.0.N) so one process can be many students. Behaves like a browser's
 * {@code EventSource}: parses {@code data:}, {@code event:}, {@code id:} and {@code retry:}; when a stream ends or a
 * connection is refused it reconnects after the retry delay with {@code Last-Event-ID}; a non-200 answer ends the
 * stream for good. Listener calls run on the hub's thread and must not block.
 */
public final class SseHub implements AutoCloseable {
  /** One dispatched event; {@code receivedNanos} is {@link System#nanoTime()} when its last byte was read. */
  public record Event(String id, String type, String data, long receivedNanos) {}

  /** What a stream reports. */
  public interface Listener {
    void onEvent(Stream stream, Event event);

    default void onOpen(Stream stream) {}

    /** The stream closed and will not reconnect (non-200 answer, or {@link Stream#close}). */
    default void onFailed(Stream stream, String reason) {}
  }

  /** One logical stream (survives reconnects). */
  public final class Stream {
    private final int index;
    private final InetAddress from;
    private final String path;
    private final Map<String, String> headers;
    private SocketChannel channel;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private boolean inBody;
    private boolean chunked;
    private long chunkLeft = -1;     // -1: expecting a chunk-size line
    private final StringBuilder chunkLine = new StringBuilder();
    private boolean skipCrlf;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private final StringBuilder data = new StringBuilder();
    private String eventType = "";
    private String pendingId;
    private volatile String lastEventId;
    private volatile int retryMillis = 3000;
    private volatile int connects;
    private volatile boolean open;
    private volatile boolean closed;
    private int lastStatus;

    private Stream(int index, InetAddress from, String path, Map<String, String> headers) {
      this.index = index;
      this.from = from;
      this.path = path;
      this.headers = new LinkedHashMap<>(headers);
    }

    public int index() { return index; }

    /** Whether a response is being read now. */
    public boolean isOpen() { return open; }

    /** How many times a connection was answered with 200 (1 = never reconnected). */
    public int connects() { return connects; }

    public int retryMillis() { return retryMillis; }

    public String lastEventId() { return lastEventId; }

    /**
     * Drops the connection now and opens it again after {@code millis}, as a phone's browser does when the phone
     * sleeps and wakes (the page was never closed): the new connection carries {@code Last-Event-ID}.
     */
    public void sleep(long millis) {
      tasks.add(() -> {
        if (closed) return;
        disconnect();
        timers.add(new Timer(System.nanoTime() + millis * 1_000_000L, () -> {
          if (channel == null) connect(this);
        }));
      });
      selector.wakeup();
    }

    /** Ends the stream for good. */
    public void close() {
      tasks.add(() -> {
        closed = true;
        disconnect();
      });
      selector.wakeup();
    }

    private void disconnect() {
      open = false;
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
      channel = null;
    }

    private void reset() {
      head.reset();
      inBody = false;
      chunked = false;
      chunkLeft = -1;
      chunkLine.setLength(0);
      skipCrlf = false;
      line.reset();
      data.setLength(0);
      eventType = "";
      pendingId = null;
    }
  }

  private final InetSocketAddress server;
  private final Listener listener;
  private final Selector selector;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>();
  private final List<Stream> streams = new ArrayList<>();
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
  private volatile boolean running = true;

  private record Timer(long dueNanos, Runnable task) implements Comparable<Timer> {
    @Override public int compareTo(Timer o) { return Long.compare(dueNanos, o.dueNanos); }
  }

  public SseHub(InetSocketAddress server, Listener listener) throws IOException {
    this.server = server;
    this.listener = listener;
    this.selector = Selector.open();
    this.thread = new Thread(this::loop, "sse-hub");
    thread.setDaemon(true);
    thread.start();
  }

  /** Opens a stream from {@code from} to {@code path} with extra request headers (such as a cookie). */
  public Stream open(InetAddress from, String path, Map<String, String> headers) {
    Stream stream;
    synchronized (streams) {
      stream = new Stream(streams.size(), from, path, headers);
      streams.add(stream);
    }
    tasks.add(() -> connect(stream));
    selector.wakeup();
    return stream;
  }

  public List<Stream> streams() {
    synchronized (streams) {
      return List.copyOf(streams);
    }
  }

  private void loop() {
    try {
      while (running) {
        Runnable task;
        while ((task = tasks.poll()) != null) task.run();
        long now = System.nanoTime();
        while (!timers.isEmpty() && timers.peek().dueNanos <= now) timers.poll().task.run();
        long waitMillis = timers.isEmpty() ? 1000 : Math.max(1, (timers.peek().dueNanos - now) / 1_000_000);
        selector.select(waitMillis);
        for (SelectionKey key : selector.selectedKeys()) {
          Stream stream = (Stream) key.attachment();
          try {
            if (key.isValid() && key.isConnectable()) finishConnect(stream, key);
            if (key.isValid() && key.isReadable()) read(stream);
          } catch (IOException e) {
            lost(stream);
          }
        }
        selector.selectedKeys().clear();
      }
    } catch (IOException | ClosedSelectorException e) {
      if (running) throw new IllegalStateException("SSE hub stopped: " + e, e);
    }
  }

  private void connect(Stream stream) {
    if (closed(stream)) return;
    stream.reset();
    try {
      SocketChannel channel = SocketChannel.open();
      stream.channel = channel;
      channel.configureBlocking(false);
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.bind(new InetSocketAddress(stream.from, 0));
      if (channel.connect(server)) {
        sendRequest(stream);
        channel.register(selector, SelectionKey.OP_READ, stream);
      } else {
        channel.register(selector, SelectionKey.OP_CONNECT, stream);
      }
    } catch (IOException e) {
      lost(stream);
    }
  }

  private boolean closed(Stream stream) {
    return stream.closed || !running;
  }

  private void finishConnect(Stream stream, SelectionKey key) throws IOException {
    stream.channel.finishConnect();
    sendRequest(stream);
    key.interestOps(SelectionKey.OP_READ);
  }

  private void sendRequest(Stream stream) throws IOException {
    StringBuilder request = new StringBuilder()
        .append("GET ").append(stream.path).append(" HTTP/1.1\r\n")
        .append("Host: ").append(server.getHostString()).append(':').append(server.getPort()).append("\r\n")
        .append("Accept: text/event-stream\r\nCache-Control: no-cache\r\n");
    stream.headers.forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
    if (stream.lastEventId != null) request.append("Last-Event-ID: ").append(stream.lastEventId).append("\r\n");
    request.append("\r\n");
    ByteBuffer out = ByteBuffer.wrap(request.toString().getBytes(StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (out.hasRemaining()) {   // a request this small goes out in one write in practice
      stream.channel.write(out);
      if (System.nanoTime() > deadline) throw new IOException("could not send the request");
    }
  }

  private void read(Stream stream) throws IOException {
    buffer.clear();
    int n = stream.channel.read(buffer);
    if (n < 0) {
      lost(stream);
      return;
    }
    long now = System.nanoTime();
    buffer.flip();
    while (buffer.hasRemaining()) {
      byte b = buffer.get();
      if (!stream.inBody) {
        stream.head.write(b);
        if (b == '\n' && endsWithBlankLine(stream.head)) {
          if (!startBody(stream)) return;
        }
      } else if (!stream.chunked) {
        sseByte(stream, b, now);
      } else {
        chunkByte(stream, b, now);
      }
    }
  }

  private static boolean endsWithBlankLine(ByteArrayOutputStream head) {
    byte[] h = head.toByteArray();   // heads are short; only checked when the last byte is '\n'
    int n = h.length;
    return n >= 4 && h[n - 1] == '\n' && h[n - 2] == '\r' && h[n - 3] == '\n' && h[n - 4] == '\r';
  }

  private boolean startBody(Stream stream) {
    String[] lines = stream.head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] status = lines[0].split(" ");
    stream.lastStatus = status.length > 1 ? Integer.parseInt(status[1]) : 0;
    if (stream.lastStatus != 200) {
      stream.closed = true;
      stream.disconnect();
      listener.onFailed(stream, "answered " + lines[0]);
      return false;
    }
    for (String l : lines) {
      if (l.toLowerCase(Locale.ROOT).startsWith("transfer-encoding:") && l.toLowerCase(Locale.ROOT).contains("chunked")) {
        stream.chunked = true;
      }
    }
    stream.inBody = true;
    stream.open = true;
    stream.connects++;
    listener.onOpen(stream);
    return true;
  }

  private void chunkByte(Stream stream, byte b, long now) throws IOException {
    if (stream.skipCrlf) {
      if (b == '\n') stream.skipCrlf = false;
      return;
    }
    if (stream.chunkLeft < 0) {
      if (b == '\n') {
        String size = stream.chunkLine.toString().split(";")[0].trim();
        stream.chunkLine.setLength(0);
        if (size.isEmpty()) return;
        stream.chunkLeft = Long.parseLong(size, 16);
        if (stream.chunkLeft == 0) throw new IOException("the stream ended");   // last chunk: reconnect
      } else if (b != '\r') {
        stream.chunkLine.append((char) b);
      }
      return;
    }
    sseByte(stream, b, now);
    if (--stream.chunkLeft == 0) {
      stream.chunkLeft = -1;
      stream.skipCrlf = true;
    }
  }

  private void sseByte(Stream stream, byte b, long now) {
    if (b != '\n') {
      stream.line.write(b);
      return;
    }
    String text = stream.line.toString(StandardCharsets.UTF_8);
    stream.line.reset();
    if (text.endsWith("\r")) text = text.substring(0, text.length() - 1);
    if (text.isEmpty()) {
      dispatch(stream, now);
      return;
    }
    if (text.startsWith(":")) return;
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) value = value.substring(1);
    switch (field) {
      case "data":
        stream.data.append(value).append('\n');
        break;
      case "event":
        stream.eventType = value;
        break;
      case "id":
        stream.pendingId = value;
        break;
      case "retry":
        if (value.matches("\\d+")) stream.retryMillis = Integer.parseInt(value);
        break;
      default:
        break;
    }
  }

  private void dispatch(Stream stream, long now) {
    if (stream.pendingId != null) stream.lastEventId = stream.pendingId;
    stream.pendingId = null;
    if (stream.data.length() == 0) {
      stream.eventType = "";
      return;
    }
    String data = stream.data.substring(0, stream.data.length() - 1);
    String type = stream.eventType.isEmpty() ? "message" : stream.eventType;
    stream.data.setLength(0);
    stream.eventType = "";
    listener.onEvent(stream, new Event(stream.lastEventId, type, data, now));
  }

  /** The connection ended or failed: reconnect after the retry delay, as EventSource does. */
  private void lost(Stream stream) {
    stream.disconnect();
    if (closed(stream)) return;
    timers.add(new Timer(System.nanoTime() + stream.retryMillis * 1_000_000L, () -> {
      if (stream.channel == null) connect(stream); // unless a phone's wake-up connected it first
    }));
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (streams) {
      streams.forEach(Stream::disconnect);
    }
    try {
      selector.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
