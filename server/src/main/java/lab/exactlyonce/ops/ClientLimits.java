package lab.exactlyonce.ops;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How much of the server one client may hold, so that slow or greedy clients cannot starve the others. A client is
 * its address (behind a trusted proxy, the address the proxy names) and, for live streams, also its learner cookie.
 * The defaults let a lecture hall of a thousand students behind one NAT address work normally (measured by the
 * class-period soak, {@code bench.ClassPeriod}).
 *
 * @param connectionsPerAddress open connections from one address; the next one is answered 503 and closed
 *     ({@code --max-connections-per-address}, default 4096: a thousand phones, each with its stream and a
 *     few kept-alive connections; connections from trusted proxies are not counted)
 * @param requestsPerAddress requests of one address being handled at once; the rest wait without holding a
 *     thread ({@code --max-requests-per-address}, default 24)
 * @param uploadSeconds a request body must have arrived this long after the server began to read it, or it is
 *     cut off with 408 ({@code --upload-seconds}, default 10); waiting for a thread does not count
 * @param idleTimeoutSeconds a connection with no traffic for this long is closed ({@code --idle-timeout-seconds},
 *     default 30; live streams send a heartbeat every 5 s)
 * @param maxBodyBytes the largest request body any route takes; a longer declared one is refused with 413 before it
 *     is read ({@code --max-body-bytes}, default 393216)
 * @param streamsPerAddress live event streams open from one address ({@code --max-streams-per-address},
 *     default 2000: a class behind one NAT has a stream per student and tab)
 * @param streamsPerLearner live event streams open for one learner or instructor cookie
 *     ({@code --max-streams-per-learner}, default 6: a few tabs)
 * @param ipv6PrefixBits what every per-address limit counts as one address in IPv6: the block of this many leading
 *     bits ({@code --ipv6-prefix-bits}, default 64, the block one subscriber gets whole); IPv4 counts by address
 */
public record ClientLimits(int connectionsPerAddress, int requestsPerAddress, int uploadSeconds,
                           int idleTimeoutSeconds, int maxBodyBytes, int streamsPerAddress, int streamsPerLearner,
                           int ipv6PrefixBits) {

  static final Map<String, String> FLAGS = flags();

  public ClientLimits {
    atLeast(connectionsPerAddress, 8, "--max-connections-per-address");
    atLeast(requestsPerAddress, 2, "--max-requests-per-address");
    atLeast(uploadSeconds, 1, "--upload-seconds");
    atLeast(idleTimeoutSeconds, 5, "--idle-timeout-seconds");
    atLeast(maxBodyBytes, 4096, "--max-body-bytes");
    atLeast(streamsPerAddress, 1, "--max-streams-per-address");
    atLeast(streamsPerLearner, 1, "--max-streams-per-learner");
    atLeast(ipv6PrefixBits, 1, "--ipv6-prefix-bits");
    if (ipv6PrefixBits > 128) throw new IllegalArgumentException("--ipv6-prefix-bits must be at most 128, got " + ipv6PrefixBits);
  }

  public static ClientLimits defaults() {
    return new ClientLimits(4096, 24, 10, 30, 393_216, 2000, 6, 64);
  }

  static ClientLimits from(Function<String, Optional<String>> option) {
    ClientLimits d = defaults();
    return new ClientLimits(
        number(option, "--max-connections-per-address", d.connectionsPerAddress),
        number(option, "--max-requests-per-address", d.requestsPerAddress),
        number(option, "--upload-seconds", d.uploadSeconds),
        number(option, "--idle-timeout-seconds", d.idleTimeoutSeconds),
        number(option, "--max-body-bytes", d.maxBodyBytes),
        number(option, "--max-streams-per-address", d.streamsPerAddress),
        number(option, "--max-streams-per-learner", d.streamsPerLearner),
        number(option, "--ipv6-prefix-bits", d.ipv6PrefixBits));
  }

  public ClientLimits withConnectionsPerAddress(int n) {
    return new ClientLimits(n, requestsPerAddress, uploadSeconds, idleTimeoutSeconds, maxBodyBytes,
        streamsPerAddress, streamsPerLearner, ipv6PrefixBits);
  }

  public ClientLimits withUploadSeconds(int seconds) {
    return new ClientLimits(connectionsPerAddress, requestsPerAddress, seconds, idleTimeoutSeconds, maxBodyBytes,
        streamsPerAddress, streamsPerLearner, ipv6PrefixBits);
  }

  public ClientLimits withIdleTimeoutSeconds(int seconds) {
    return new ClientLimits(connectionsPerAddress, requestsPerAddress, uploadSeconds, seconds, maxBodyBytes,
        streamsPerAddress, streamsPerLearner, ipv6PrefixBits);
  }

  public ClientLimits withIpv6PrefixBits(int bits) {
    return new ClientLimits(connectionsPerAddress, requestsPerAddress, uploadSeconds, idleTimeoutSeconds, maxBodyBytes,
        streamsPerAddress, streamsPerLearner, bits);
  }

  public ClientLimits withStreams(int perAddress, int perLearner) {
    return new ClientLimits(connectionsPerAddress, requestsPerAddress, uploadSeconds, idleTimeoutSeconds,
        maxBodyBytes, perAddress, perLearner, ipv6PrefixBits);
  }

  private static Map<String, String> flags() {
    Map<String, String> table = new LinkedHashMap<>();
    for (String flag : new String[] {"--max-connections-per-address", "--max-requests-per-address",
        "--upload-seconds", "--idle-timeout-seconds", "--max-body-bytes", "--max-streams-per-address",
        "--max-streams-per-learner", "--ipv6-prefix-bits"}) {
      table.put(flag, flag.substring(2).toUpperCase(Locale.ROOT).replace('-', '_'));
    }
    return Map.copyOf(table);
  }

  private static int number(Function<String, Optional<String>> option, String flag, int fallback) {
    return option.apply(flag).map(text -> {
      try {
        return Integer.parseInt(text.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(flag + " must be a whole number, got '" + text + "'");
      }
    }).orElse(fallback);
  }

  private static void atLeast(int value, int least, String flag) {
    if (value < least) throw new IllegalArgumentException(flag + " must be at least " + least + ", got " + value);
  }
}
