package lab.exactlyonce.ops;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.util.List;

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

  private static final Option CONNECTIONS_PER_ADDRESS = Option.of("--max-connections-per-address",
      "MAX_CONNECTIONS_PER_ADDRESS", "4096", "8 or more", "open connections from one client address (a lecture hall"
      + " of a thousand phones behind one NAT); the next is answered 503 and closed (trusted proxies are not counted)");
  private static final Option REQUESTS_PER_ADDRESS = Option.of("--max-requests-per-address",
      "MAX_REQUESTS_PER_ADDRESS", "24", "2 or more", "requests of one address handled at once; more wait without"
      + " holding a thread");
  private static final Option UPLOAD_SECONDS = Option.of("--upload-seconds", "UPLOAD_SECONDS", "10", "1 or more",
      "a request body must have arrived this long after the server began to read it (else 408)");
  private static final Option IDLE_TIMEOUT_SECONDS = Option.of("--idle-timeout-seconds", "IDLE_TIMEOUT_SECONDS", "30",
      "5 or more", "a connection without traffic for this long is closed (live streams send a heartbeat every 5 s)");
  private static final Option MAX_BODY_BYTES = Option.of("--max-body-bytes", "MAX_BODY_BYTES", "393216",
      "4096 or more", "the largest body any request may declare; larger is refused with 413 before it is read");
  private static final Option STREAMS_PER_ADDRESS = Option.of("--max-streams-per-address", "MAX_STREAMS_PER_ADDRESS",
      "2000", "1 or more", "live event streams open from one address (a class behind one NAT has one per student and"
      + " tab)");
  private static final Option STREAMS_PER_LEARNER = Option.of("--max-streams-per-learner", "MAX_STREAMS_PER_LEARNER",
      "6", "1 or more", "live event streams open for one learner or instructor cookie");
  private static final Option IPV6_PREFIX_BITS = Option.of("--ipv6-prefix-bits", "IPV6_PREFIX_BITS", "64", "1 to 128",
      "every per-address limit counts an IPv6 client by its block of this many bits (one subscriber holds a whole"
      + " /64); IPv4 by address. Within an address, runs, share links, scored answers and the engine lab's queue are"
      + " shared per learner cookie");

  static final List<Option> OPTIONS = List.of(CONNECTIONS_PER_ADDRESS, REQUESTS_PER_ADDRESS, UPLOAD_SECONDS,
      IDLE_TIMEOUT_SECONDS, MAX_BODY_BYTES, STREAMS_PER_ADDRESS, STREAMS_PER_LEARNER, IPV6_PREFIX_BITS);

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
    return from(OptionValues.none());
  }

  static ClientLimits from(OptionValues values) {
    return new ClientLimits(number(values, CONNECTIONS_PER_ADDRESS), number(values, REQUESTS_PER_ADDRESS),
        number(values, UPLOAD_SECONDS), number(values, IDLE_TIMEOUT_SECONDS), number(values, MAX_BODY_BYTES),
        number(values, STREAMS_PER_ADDRESS), number(values, STREAMS_PER_LEARNER), number(values, IPV6_PREFIX_BITS));
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

  public ClientLimits withStreams(int perAddress, int perLearner) {
    return new ClientLimits(connectionsPerAddress, requestsPerAddress, uploadSeconds, idleTimeoutSeconds,
        maxBodyBytes, perAddress, perLearner, ipv6PrefixBits);
  }

  private static int number(OptionValues values, Option option) {
    String text = values.orDefault(option);
    try {
      return Integer.parseInt(text.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option.flag() + " must be a whole number, got '" + text + "'");
    }
  }

  private static void atLeast(int value, int least, String flag) {
    if (value < least) throw new IllegalArgumentException(flag + " must be at least " + least + ", got " + value);
  }
}
