package lab.exactlyonce.ops;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The app's one meter registry, scraped at {@code GET /metrics} in the Prometheus text format. App creates it and
 * hands {@link #registry()} to every feature that measures something; nothing registers into a global registry.
 *
 * <p>HTTP requests are timed as {@code http_server_requests_seconds} by method, route template (the pattern that
 * matched, such as {@code /lessons/{id}}, never the raw path, so the number of series stays bounded) and status.
 */
public final class Metrics implements AutoCloseable {
  /** Latency buckets for HTTP requests: enough to read p50/p99 in Prometheus without a series per millisecond. */
  private static final Duration[] BUCKETS = {
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
      Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
      Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();

  public Metrics() {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Registers {@code GET /metrics} unless {@code access} is OFF. */
  public void register(RoutesConfig routes, OpsSettings.MetricsAccess access) {
    if (access == OpsSettings.MetricsAccess.OFF) return;
    routes.get("/metrics", ctx -> {
      if (access == OpsSettings.MetricsAccess.LOCAL && !isLoopback(ctx.ip())) {
        throw new ForbiddenResponse("/metrics is only served to this machine (--metrics local)");
      }
      ctx.contentType(CONTENT_TYPE).result(registry.scrape());
    });
  }

  /** Records one finished request; called from the request logger, so it sees every request, async ones too. */
  void recordRequest(Context ctx, float millis) {
    Timer.builder("http.server.requests")
        .description("HTTP requests by method, route template and status")
        .tag("method", ctx.method().name())
        .tag("route", routeOf(ctx))
        .tag("status", String.valueOf(ctx.statusCode()))
        .serviceLevelObjectives(BUCKETS)
        .register(registry)
        .record((long) (millis * 1_000_000L), TimeUnit.NANOSECONDS);
  }

  /** The route template that handled the request, or a fixed label for static files and unmatched paths. */
  static String routeOf(Context ctx) {
    try {
      Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
      if (endpoint != null) return endpoint.path;
    } catch (RuntimeException none) {
      // no endpoint matched: static files, webjars, 404s
    }
    String path = ctx.path();
    if (path.startsWith("/assets/")) return "/assets/*";
    if (path.startsWith("/webjars/")) return "/webjars/*";
    return ctx.statusCode() == 404 ? "NOT_FOUND" : "UNMATCHED";
  }

  private static boolean isLoopback(String ip) {
    try {
      return InetAddress.getByName(ip).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
