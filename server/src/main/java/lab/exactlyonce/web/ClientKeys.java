package lab.exactlyonce.web;

import io.javalin.http.Context;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Who a request counts as, for the limits that share the server fairly. A whole class may sit behind one school
 * address, so an address is only a coarse ceiling, its {@linkplain #network network}: an IPv4 address, or the IPv6
 * block of {@code ipv6PrefixBits} it is in (by default a /64, which one subscriber gets whole, so one client has 2^64
 * addresses of it). The fair share is per {@linkplain #client learner} wherever the request carries the signed learner
 * cookie; a request without one shares its network's turn with every other request without one.
 */
public final class ClientKeys {
  /** The learner a request's signed cookie names, if it has a valid one. */
  public interface LearnerLookup {
    Optional<String> learnerOf(Context ctx);
  }

  private final int ipv6PrefixBits;
  private final LearnerLookup learners;

  public ClientKeys(int ipv6PrefixBits, LearnerLookup learners) {
    if (ipv6PrefixBits < 1 || ipv6PrefixBits > 128) {
      throw new IllegalArgumentException("an IPv6 prefix is 1 to 128 bits, got " + ipv6PrefixBits);
    }
    this.ipv6PrefixBits = ipv6PrefixBits;
    this.learners = learners;
  }

  /** The request's network: {@code ctx.ip()} (the client behind a trusted proxy), cut to the IPv6 prefix. */
  public String network(Context ctx) {
    return network(ctx.ip(), ipv6PrefixBits);
  }

  /** The learner the request's signed cookie names, if it has a valid one (a tampered one is refused with 400). */
  public Optional<String> learner(Context ctx) {
    return learners.learnerOf(ctx);
  }

  /**
   * {@code learner:<id>} for a request with a valid learner cookie, else {@code network:<network>}: the key of the
   * per-client queues and rate limits.
   */
  public String client(Context ctx) {
    return learner(ctx).map(id -> "learner:" + id).orElseGet(() -> "network:" + network(ctx));
  }

  /**
   * {@code address} as the network it counts under: an IPv4 address (or an IPv4-mapped IPv6 one) as itself, an IPv6
   * address as {@code <first prefixBits bits>/<prefixBits>}; text that is not an address literal stays as it is.
   */
  public static String network(String address, int prefixBits) {
    if (address == null || address.indexOf(':') < 0) return address; // IPv4, or no address at all
    InetAddress parsed;
    try {
      parsed = InetAddress.getByName(address.startsWith("[") ? address.substring(1, address.length() - 1) : address);
    } catch (UnknownHostException | RuntimeException e) {
      return address;
    }
    if (!(parsed instanceof Inet6Address)) return parsed.getHostAddress(); // ::ffff:a.b.c.d arrives as IPv4
    byte[] bytes = parsed.getAddress();
    for (int bit = prefixBits; bit < 128; bit++) bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
    try {
      return InetAddress.getByAddress(bytes).getHostAddress() + "/" + prefixBits;
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }
}
