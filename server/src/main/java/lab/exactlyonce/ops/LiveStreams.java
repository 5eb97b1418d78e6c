package lab.exactlyonce.ops;

import io.javalin.http.Context;
import io.javalin.http.TooManyRequestsResponse;
import io.javalin.http.sse.SseClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import lab.exactlyonce.web.ClientKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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

  /**
   * How often every open stream gets a comment line. A client that closed or reset its connection is only noticed on
   * a failed write (the server reads nothing more from a stream's connection), one or two heartbeats later; until then
   * its stream and its connection count against its address's share, so the beat is short enough that a class of
   * phones closing and reopening streams behind one address gets its places back within seconds. A phone that
   * vanished without a word (out of range, asleep) is not noticed this way: writes to it succeed into the send
   * buffer until TCP gives up on it.
   */
  static final long HEARTBEAT_MILLIS = 5_000;

  private final Map<SseClient, Holder> open = new ConcurrentHashMap<>();
  /** Streams admitted but not yet begun, by request: counted too, so a burst cannot slip past the limits. */
  private final Map<Object, Pending> admitted = new ConcurrentHashMap<>();
  private static final long ADMITTED_FOR_NANOS = 10_000_000_000L;
  private final ClientLimits limits;
  private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sse-heartbeat");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean closing;

  /** Who holds a stream: the client's address and the app's own cookies it sent (null without any). */
  private record Holder(String address, String person) {}

  private record Pending(Holder holder, long at) {}

  public LiveStreams(MeterRegistry registry, ClientLimits limits) {
    this(registry, limits, HEARTBEAT_MILLIS);
  }

  LiveStreams(MeterRegistry registry, ClientLimits limits, long heartbeatMillis) {
    this.limits = limits;
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
    Holder holder = holderOf(client.ctx());
    synchronized (this) {
      admitted.remove(client.ctx().req());
      String refusal = refusal(holder);
      if (refusal != null) {
        // The stream has begun already (a 200 with its headers): say why on it, once, and end it without a retry.
        try {
          synchronized (client) {
            client.sendEvent("error", "{\"error\":\"" + refusal + "\"}");
          }
        } catch (RuntimeException ignored) {
          // gone already
        }
        client.close();
        return;
      }
      open.put(client, holder);
    }
    int retry = ThreadLocalRandom.current().nextInt(MIN_RETRY_MILLIS, MAX_RETRY_MILLIS);
    try {
      // SseClient has no API for the retry field; this runs on the handler's thread before the feature sends anything,
      // but a heartbeat may already find the stream.
      synchronized (client) {
        client.ctx().res().getOutputStream().write(("retry: " + retry + "\n\n").getBytes(StandardCharsets.UTF_8));
        client.ctx().res().flushBuffer();
      }
    } catch (IOException e) {
      open.remove(client);
      client.close();
      return;
    }
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
    for (SseClient client : open.keySet()) {
      try {
        // Every writer of a stream holds its client's lock (the classroom's feed does too): Javalin serialises the
        // events it writes but not a comment, which could otherwise land inside an event being written, or fail and
        // end the stream.
        synchronized (client) {
          if (!client.terminated()) client.sendComment("heartbeat");
        }
      } catch (RuntimeException e) {
        client.close();
      }
    }
    count();
  }

  /** How many streams are open now (ended ones are forgotten here). */
  public int count() {
    open.keySet().removeIf(SseClient::terminated);
    return open.size();
  }

  /**
   * Refuses with 429, before a stream begins, a client that holds as many streams as it may: called for every
   * request that asks for {@code text/event-stream}. {@link #add} checks again, for streams opened side by side.
   */
  public void admit(Context ctx) {
    String refusal;
    synchronized (this) {
      Holder holder = holderOf(ctx);
      refusal = refusal(holder);
      if (refusal == null) admitted.put(ctx.req(), new Pending(holder, System.nanoTime()));
    }
    if (refusal != null) throw new TooManyRequestsResponse(refusal);
  }

  /**
   * The request is answered: if it was admitted as a stream but never began one (it was refused, or asked for a
   * stream where there is none), it no longer counts. Streams that began were taken out of the admitted ones by
   * {@link #add} already.
   */
  public void settled(Context ctx) {
    admitted.remove(ctx.req());
  }

  /** Why this holder may not open one more stream, or null. */
  private String refusal(Holder holder) {
    open.keySet().removeIf(SseClient::terminated);
    long now = System.nanoTime();
    admitted.values().removeIf(p -> now - p.at() > ADMITTED_FOR_NANOS); // refused later, or never begun
    int fromAddress = 0;
    int ofPerson = 0;
    List<Holder> holders = new ArrayList<>(open.values());
    for (Pending p : admitted.values()) holders.add(p.holder());
    for (Holder h : holders) {
      if (h.address().equals(holder.address())) fromAddress++;
      if (holder.person() != null && holder.person().equals(h.person())) ofPerson++;
    }
    if (holder.person() != null && ofPerson >= limits.streamsPerLearner()) {
      return "you have " + ofPerson + " live streams open already (the limit is " + limits.streamsPerLearner()
          + "): close another tab of this page first";
    }
    if (fromAddress >= limits.streamsPerAddress()) {
      return "your network address has " + fromAddress + " live streams open already (the limit is "
          + limits.streamsPerAddress() + "); try again in a moment";
    }
    return null;
  }

  /** The app's own cookies ({@code eolab_*}: the learner's, the instructor's) say which person holds a stream. */
  private Holder holderOf(Context ctx) {
    StringBuilder person = new StringBuilder();
    new TreeMap<>(ctx.cookieMap()).forEach((name, value) -> {
      if (name.startsWith("eolab_") && !value.isEmpty()) person.append(name).append('=').append(value).append(';');
    });
    return new Holder(ClientKeys.network(ctx.ip(), limits.ipv6PrefixBits()), person.length() == 0 ? null : person.toString());
  }

  /** Ends every stream (and every one that opens from now on) so the clients reconnect after their retry delay. */
  public void closeAll() {
    closing = true;
    heartbeat.shutdownNow();
    int n = 0;
    for (SseClient client : open.keySet()) {
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
      synchronized (client) {
        if (!client.terminated()) client.sendComment("server restarting; reconnect");
      }
    } catch (RuntimeException ignored) {
      // the client went away already
    }
    client.close();
  }
}
