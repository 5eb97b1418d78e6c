package lab.exactlyonce.ops;

import io.javalin.http.sse.SseClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Every live server-sent-event stream the app holds open, whichever feature opened it. An SSE handler calls
 * {@link #add} first thing: the stream is counted in the {@code eolab_sse_connections} gauge and gets a
 * {@code retry:} hint, so that when a stopping server ends it ({@link #closeAll}) the browser's
 * {@code EventSource} reconnects on its own a moment later, to the restarted server.
 *
 * <p>The reconnect delay is spread between {@link #MIN_RETRY_MILLIS} and {@link #MAX_RETRY_MILLIS} per stream so a
 * class of 300 does not come back in the same millisecond.
 */
public final class LiveStreams {
  private static final Logger log = LoggerFactory.getLogger(LiveStreams.class);
  static final int MIN_RETRY_MILLIS = 1000;
  static final int MAX_RETRY_MILLIS = 3000;

  /** How often every open stream gets a comment line: a client that went away is noticed on the failed write. */
  static final long HEARTBEAT_MILLIS = 15_000;

  private final Set<SseClient> open = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sse-heartbeat");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean closing;

  public LiveStreams(MeterRegistry registry) {
    this(registry, HEARTBEAT_MILLIS);
  }

  LiveStreams(MeterRegistry registry, long heartbeatMillis) {
    heartbeat.scheduleWithFixedDelay(this::heartbeat, heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    Gauge.builder("eolab.sse.connections", this, LiveStreams::count)
        .description("Live server-sent-event streams (classroom dashboards and students)")
        .register(registry);
  }

  /**
   * Adopts a stream that has just opened: sends it the reconnect hint and counts it until it ends. If the server is
   * already stopping, the stream is ended a moment later (the client reconnects to the next server). Call it before
   * {@code client.keepAlive()}.
   */
  public void add(SseClient client) {
    int retry = ThreadLocalRandom.current().nextInt(MIN_RETRY_MILLIS, MAX_RETRY_MILLIS);
    try {
      // SseClient has no API for the retry field; this runs on the handler's thread before any event is sent.
      client.ctx().res().getOutputStream().write(("retry: " + retry + "\n\n").getBytes(StandardCharsets.UTF_8));
      client.ctx().res().flushBuffer();
    } catch (IOException e) {
      client.close();
      return;
    }
    open.add(client);
    if (closing) {
      // Not at once: the handler has yet to call keepAlive(), which would wait forever on an already closed client.
      CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(() -> end(client));
    }
  }

  /**
   * Writes a comment to every open stream. A browser that closed its tab is only noticed when a write to it fails;
   * SseClient then closes itself, which its owner's onClose hears (the classroom's roster) and this count drops.
   * The traffic also keeps proxies from cutting an idle stream.
   */
  private void heartbeat() {
    for (SseClient client : open) {
      try {
        if (!client.terminated()) client.sendComment("heartbeat");
      } catch (RuntimeException e) {
        client.close();
      }
    }
    count();
  }

  /** How many streams are open now (ended ones are forgotten here). */
  public int count() {
    open.removeIf(SseClient::terminated);
    return open.size();
  }

  /** Ends every stream (and every one that opens from now on) so the clients reconnect after their retry delay. */
  public void closeAll() {
    closing = true;
    heartbeat.shutdownNow();
    int n = 0;
    for (SseClient client : open) {
      end(client);
      n++;
    }
    open.clear();
    if (n > 0) log.info("shutdown: ended {} live stream(s); their clients reconnect in {}-{} ms", n,
        MIN_RETRY_MILLIS, MAX_RETRY_MILLIS);
  }

  /** Stops the heartbeat (the app is closing). */
  void stop() {
    heartbeat.shutdownNow();
  }

  private static void end(SseClient client) {
    try {
      if (!client.terminated()) client.sendComment("server restarting; reconnect");
    } catch (RuntimeException ignored) {
      // the client went away already
    }
    client.close();
  }
}
