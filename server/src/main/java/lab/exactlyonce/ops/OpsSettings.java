package lab.exactlyonce.ops;

import lab.exactlyonce.web.SecurityHeaders;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

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

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = flagTable();

  private static Map<String, String> flagTable() {
    Map<String, String> table = new LinkedHashMap<>();
    table.put("--request-log", "REQUEST_LOG");
    table.put("--metrics", "METRICS");
    table.put("--drain-seconds", "DRAIN_SECONDS");
    table.put("--trusted-proxies", "TRUSTED_PROXIES");
    table.put("--frame-ancestors", "FRAME_ANCESTORS");
    table.putAll(ClientLimits.FLAGS);
    return Collections.unmodifiableMap(table);
  }

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

  public static OpsSettings from(Function<String, Optional<String>> option) {
    boolean log = option.apply("--request-log").map(v -> onOff(v)).orElse(true);
    MetricsAccess access = option.apply("--metrics").map(v -> access(v)).orElse(MetricsAccess.LOCAL);
    long drain = option.apply("--drain-seconds").map(v -> seconds(v)).orElse(10L);
    if (drain < 0 || drain > 600) throw new IllegalArgumentException("--drain-seconds must be between 0 and 600, got " + drain);
    TrustedProxies proxies = option.apply("--trusted-proxies").map(TrustedProxies::parse).orElse(TrustedProxies.none());
    List<String> ancestors = option.apply("--frame-ancestors")
        .map(v -> Arrays.stream(v.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList())
        .orElse(List.of());
    return new OpsSettings(log, access, Duration.ofSeconds(drain), proxies, ClientLimits.from(option), ancestors);
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
