package lab.exactlyonce.ops;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;
import lab.exactlyonce.web.SecurityHeaders;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * What the person hosting the app can tune about operations.
 *
 * @param requestLog one log line per request ({@code --request-log on|off}, default on)
 * @param metrics who may read {@code GET /metrics} ({@code --metrics public|local|off}, default local: a scraper on
 *     this machine; the figures hold nothing personal, but they name every route, the instructor's too, and show how
 *     busy the sandbox is, which is nobody else's business)
 * @param drainTimeout how long a stopping server lets in-flight requests finish ({@code --drain-seconds}, default 10)
 * @param trustedProxies the reverse proxies whose {@code X-Forwarded-For} names the client ({@code --trusted-proxies},
 *     default none)
 * @param clients how much of the server one client may hold
 * @param frameAncestors the sites that may show the pages in a frame ({@code --frame-ancestors}, comma-separated
 *     origins; default none: no site may)
 */
public record OpsSettings(boolean requestLog, MetricsAccess metrics, Duration drainTimeout, TrustedProxies trustedProxies,
                          ClientLimits clients, List<String> frameAncestors) {

  static final Option REQUEST_LOG = Option.of("--request-log", "REQUEST_LOG", "on", "`on`, `off`",
      "one log line per request");
  static final Option METRICS = Option.of("--metrics", "METRICS", "local", "`local`, `public`, `off`",
      "who may read `GET /metrics`: `local` (loopback clients only), `public` or `off`");
  static final Option DRAIN_SECONDS = Option.of("--drain-seconds", "DRAIN_SECONDS", "10", "0 to 600",
      "on shutdown, how long requests in flight may take to finish");
  static final Option TRUSTED_PROXIES = Option.withoutDefault("--trusted-proxies", "TRUSTED_PROXIES", "none",
      "addresses, CIDR blocks or ranges, comma-separated (e.g. `127.0.0.1,10.0.0.0/8`)",
      "reverse proxies whose `X-Forwarded-For` names the client (and whose `X-Forwarded-Proto`/`-Host` are believed)");
  static final Option FRAME_ANCESTORS = Option.withoutDefault("--frame-ancestors", "FRAME_ANCESTORS",
      "none: no site may", "origins, comma-separated (e.g. `https://lms.example.edu`)",
      "sites that may show the pages in a frame");

  /** Every option of operations, the client limits' included. */
  public static final List<Option> OPTIONS = Stream.concat(
      Stream.of(REQUEST_LOG, METRICS, DRAIN_SECONDS, TRUSTED_PROXIES, FRAME_ANCESTORS),
      ClientLimits.OPTIONS.stream()).toList();

  /** Who may scrape {@code /metrics}. */
  public enum MetricsAccess {
    /** Anyone who can reach the server. */
    PUBLIC,
    /** Only clients on a loopback address (a scraper on the same machine). */
    LOCAL,
    /** No {@code /metrics} route at all. */
    OFF
  }

  public OpsSettings {
    if (metrics == null) throw new IllegalArgumentException("--metrics must be one of public, local, off");
    if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.toSeconds() > 600) {
      throw new IllegalArgumentException("--drain-seconds must be between 0 and 600, got " + drainTimeout);
    }
    if (trustedProxies == null) trustedProxies = TrustedProxies.none();
    if (clients == null) clients = ClientLimits.defaults();
    frameAncestors = frameAncestors == null ? List.of() : List.copyOf(frameAncestors);
    String problem = SecurityHeaders.problemWith(frameAncestors);
    if (problem != null) throw new IllegalArgumentException(problem);
  }

  public static OpsSettings defaults() {
    return new OpsSettings(true, MetricsAccess.LOCAL, Duration.ofSeconds(10), TrustedProxies.none(), ClientLimits.defaults(), List.of());
  }

  public static OpsSettings from(OptionValues values) {
    boolean log = onOff(values.orDefault(REQUEST_LOG));
    MetricsAccess access = access(values.orDefault(METRICS));
    long drain = seconds(values.orDefault(DRAIN_SECONDS));
    if (drain < 0 || drain > 600) throw new IllegalArgumentException("--drain-seconds must be between 0 and 600, got " + drain);
    TrustedProxies proxies = values.given(TRUSTED_PROXIES).map(TrustedProxies::parse).orElse(TrustedProxies.none());
    List<String> ancestors = values.given(FRAME_ANCESTORS)
        .map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList())
        .orElse(List.of());
    return new OpsSettings(log, access, Duration.ofSeconds(drain), proxies, ClientLimits.from(values), ancestors);
  }

  public OpsSettings withRequestLog(boolean on) {
    return new OpsSettings(on, metrics, drainTimeout, trustedProxies, clients, frameAncestors);
  }

  public OpsSettings withMetrics(MetricsAccess access) {
    return new OpsSettings(requestLog, access, drainTimeout, trustedProxies, clients, frameAncestors);
  }

  public OpsSettings withTrustedProxies(TrustedProxies proxies) {
    return new OpsSettings(requestLog, metrics, drainTimeout, proxies, clients, frameAncestors);
  }

  public OpsSettings withClients(ClientLimits limits) {
    return new OpsSettings(requestLog, metrics, drainTimeout, trustedProxies, limits, frameAncestors);
  }

  private static boolean onOff(String value) {
    switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "on": case "true": case "yes": return true;
      case "off": case "false": case "no": return false;
      default: throw new IllegalArgumentException("--request-log must be on or off, got '" + value + "'");
    }
  }

  private static MetricsAccess access(String value) {
    try {
      return MetricsAccess.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--metrics must be one of public, local, off, got '" + value + "'");
    }
  }

  private static long seconds(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--drain-seconds must be a whole number of seconds, got '" + value + "'");
    }
  }
}
