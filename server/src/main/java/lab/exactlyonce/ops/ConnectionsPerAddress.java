package lab.exactlyonce.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import lab.exactlyonce.web.ClientKeys;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the open connections of every client address and answers one past the limit with a 503 of its own before
 * closing it, so one address cannot hold all of the server's sockets. Connections from trusted proxies are not
 * counted: behind a proxy every student arrives through it. Added to each connector as its connection listener.
 */
final class ConnectionsPerAddress implements Connection.Listener {
  /** An IPv6 client counts by its block of this many bits (its /64 by default), an IPv4 one by its address. */
  private final int ipv6PrefixBits;
  private static final Logger log = LoggerFactory.getLogger(ConnectionsPerAddress.class);
  private static final long WARN_EVERY_NANOS = 60_000_000_000L;

  private final int limit;
  private final TrustedProxies proxies;
  private final ConcurrentHashMap<String, AtomicInteger> open = new ConcurrentHashMap<>();
  /**
   * The address each counted connection was counted under. A closed endpoint no longer knows its remote address, so
   * the count goes down by what was remembered at open, never by asking the endpoint again.
   */
  private final ConcurrentHashMap<Connection, String> counted = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> warned = new ConcurrentHashMap<>();

  private final Counter refused;

  ConnectionsPerAddress(int limit, int ipv6PrefixBits, TrustedProxies proxies, MeterRegistry registry) {
    this.ipv6PrefixBits = ipv6PrefixBits;
    this.limit = limit;
    this.proxies = proxies;
    Gauge.builder("eolab.connections.open", this, ConnectionsPerAddress::open)
        .description("Open client connections counted against --max-connections-per-address (trusted proxies' not)")
        .register(registry);
    this.refused = Counter.builder("eolab.connections.refused")
        .description("Connections refused with a 503 because their address had too many open")
        .register(registry);
  }

  @Override
  public void onOpened(Connection connection) {
    String remote = addressOf(connection.getEndPoint());
    if (remote == null || proxies.trusts(remote)) return;
    String address = ClientKeys.network(remote, ipv6PrefixBits);
    counted.put(connection, address);
    int now = open.compute(address, (a, count) -> {
      AtomicInteger c = count == null ? new AtomicInteger() : count;
      c.incrementAndGet();
      return c;
    }).get();
    if (now <= limit) return;
    refused.increment();
    warnOnce(address);
    refuse(connection.getEndPoint());
  }

  @Override
  public void onClosed(Connection connection) {
    String address = counted.remove(connection);
    if (address == null) return;
    open.computeIfPresent(address, (a, count) -> count.decrementAndGet() <= 0 ? null : count);
  }

  /** Open connections now, over every counted address: the {@code eolab_connections_open} gauge. */
  int open() {
    return counted.size();
  }

  private void refuse(EndPoint endPoint) {
    String body = "{\"error\":\"too many open connections from your address (the limit is " + limit
        + "); close some tabs or try again in a moment\"}";
    String response = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\n"
        + "Connection: close\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    endPoint.write(Callback.from(endPoint::close, failure -> endPoint.close()),
        ByteBuffer.wrap(response.getBytes(StandardCharsets.UTF_8)));
  }

  private void warnOnce(String address) {
    long now = System.nanoTime();
    Long last = warned.get(address);
    if (last != null && now - last < WARN_EVERY_NANOS) return;
    warned.put(address, now);
    if (warned.size() > 10_000) warned.clear();
    log.warn("refusing connections from {}: it has more than {} open (--max-connections-per-address)", address, limit);
  }

  private static String addressOf(EndPoint endPoint) {
    SocketAddress remote = endPoint.getRemoteSocketAddress();
    if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) return null;
    return inet.getAddress().getHostAddress();
  }
}
