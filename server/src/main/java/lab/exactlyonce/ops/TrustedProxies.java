package lab.exactlyonce.ops;

import org.eclipse.jetty.util.InetAddressSet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The reverse proxies the host trusts ({@code --trusted-proxies}: addresses, CIDR blocks such as {@code 10.0.0.0/8}
 * or ranges such as {@code 10.0.0.1-10.0.0.9}, comma-separated), and the client address of a request that came
 * through them. Behind a proxy every request arrives from the proxy's address, so the sandbox's fair queue would see
 * one client and {@code --metrics local} would see a local caller; with the proxy trusted, the client is the
 * right-most address in {@code X-Forwarded-For} that is not itself a trusted proxy. A request from anywhere else
 * keeps its own address, whatever {@code X-Forwarded-For} says, so nobody can choose their address by sending it.
 */
public final class TrustedProxies {
  /** IPv4 digits and dots, or IPv6 with at least one colon: text that never makes {@code InetAddress} look up DNS. */
  private static final String ADDRESS = "(?:[0-9.]+|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*)";
  private static final Pattern ADDRESS_TEXT = Pattern.compile(ADDRESS);
  private static final Pattern PATTERN_TEXT = Pattern.compile(ADDRESS + "(?:/\\d{1,3}|-" + ADDRESS + ")?");

  private final List<String> patterns;
  private final InetAddressSet set = new InetAddressSet();

  private TrustedProxies(List<String> patterns) {
    this.patterns = List.copyOf(patterns);
    set.addAll(patterns);
  }

  public static TrustedProxies none() {
    return new TrustedProxies(List.of());
  }

  /** Parses {@code --trusted-proxies}; a host name or a malformed entry is a one-line configuration error. */
  public static TrustedProxies parse(String text) {
    List<String> patterns = new ArrayList<>();
    for (String part : text.split(",")) {
      String pattern = part.strip();
      if (pattern.isEmpty()) continue;
      if (!PATTERN_TEXT.matcher(pattern).matches()) {
        throw new IllegalArgumentException("--trusted-proxies takes IP addresses, CIDR blocks (10.0.0.0/8) or ranges "
            + "(10.0.0.1-10.0.0.9) separated by commas, not host names; got '" + pattern + "'");
      }
      try {
        new InetAddressSet().add(pattern);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("--trusted-proxies: '" + pattern + "' is not a valid address, CIDR block or range");
      }
      patterns.add(pattern);
    }
    return new TrustedProxies(patterns);
  }

  public boolean isEmpty() {
    return patterns.isEmpty();
  }

  /** The same proxies: the same list of addresses, blocks and ranges. */
  @Override
  public boolean equals(Object other) {
    return other instanceof TrustedProxies that && patterns.equals(that.patterns);
  }

  @Override
  public int hashCode() {
    return patterns.hashCode();
  }

  @Override
  public String toString() {
    return "TrustedProxies" + patterns;
  }

  public List<String> patterns() {
    return patterns;
  }

  /**
   * The client's address: {@code remote} unless it is a trusted proxy; then, walking {@code X-Forwarded-For} from
   * the right, the first address that is not a trusted proxy. A malformed entry ends the walk at the last address
   * known good, and a chain of trusted proxies only gives its left-most address.
   */
  public String clientOf(String remote, String forwardedFor) {
    if (!trusted(remote) || forwardedFor == null || forwardedFor.isBlank()) return remote;
    String[] hops = forwardedFor.split(",");
    String client = remote;
    for (int i = hops.length - 1; i >= 0; i--) {
      Optional<InetAddress> hop = literal(hops[i].strip());
      if (hop.isEmpty()) return client;
      client = hop.get().getHostAddress();
      if (!set.test(hop.get())) return client;
    }
    return client;
  }

  /** Whether {@code address} (an IP literal) is one of the trusted proxies. */
  public boolean trusts(String address) {
    return trusted(address);
  }

  private boolean trusted(String address) {
    return literal(address).map(set::test).orElse(false);
  }

  /** An IP literal, never a DNS lookup. */
  private static Optional<InetAddress> literal(String text) {
    String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
    if (!ADDRESS_TEXT.matcher(bare).matches()) return Optional.empty();
    try {
      return Optional.of(InetAddress.getByName(bare));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }
}
