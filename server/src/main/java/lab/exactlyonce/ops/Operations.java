package lab.exactlyonce.ops;

import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.config.RoutesConfig;
import io.javalin.http.ContentTooLargeResponse;
import io.javalin.http.util.AsyncExecutor;
import kotlin.LazyKt;
import lab.exactlyonce.sandbox.SandboxService;
import lab.exactlyonce.web.JsonRequests;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.ThreadLimitHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the person hosting the app needs: metrics ({@code GET /metrics}, the sandbox's meters through
 * {@link #watch}), a request log, live streams that survive a restart ({@link #liveStreams()}) and a graceful stop.
 * App builds one and hands its live streams to the features.
 *
 * <p>A graceful stop ({@link #beginShutdown} then {@code javalin.stop()}): the listening socket closes (new
 * connections are refused, so reconnecting clients keep retrying instead of getting an error page), live SSE
 * streams end with a reconnect hint, in-flight requests get up to the drain timeout to finish, then the rest of the
 * app closes.
 */
public final class Operations implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Operations.class);

  private final OpsSettings settings;
  private final Metrics metrics = new Metrics();
  private final LiveStreams liveStreams;
  /**
   * Runs the work a request hands off (a live stream's keep-alive): Javalin's own default pool is never shut down, so
   * its threads would outlive a stopped app; this one ends with the app ({@link #close}).
   */
  private final ExecutorService asyncWork = Executors.newCachedThreadPool(new ThreadFactory() {
    private final AtomicInteger made = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "eolab-async-" + made.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  });

  public Operations(OpsSettings settings) {
    this.settings = settings;
    this.liveStreams = new LiveStreams(metrics.registry(), settings.clients());
  }

  /** Where SSE handlers register their streams. */
  public LiveStreams liveStreams() {
    return liveStreams;
  }

  /**
   * Request timing and logging, Jetty's graceful stop, and the client address ({@code ctx.ip()}, which the sandbox's
   * fair queue, {@code --metrics local} and the request log use) taken through trusted proxies.
   */
  public void configure(JavalinConfig cfg) {
    cfg.concurrency.executor = LazyKt.lazyOf(new AsyncExecutor(asyncWork));
    TrustedProxies proxies = settings.trustedProxies();
    if (!proxies.isEmpty()) {
      // What a proxy says about the original request is believed from a trusted proxy only; anyone else's
      // X-Forwarded-* headers are ignored.
      cfg.contextResolver.ip = ctx -> proxies.clientOf(ctx.req().getRemoteAddr(), ctx.header("X-Forwarded-For"));
      cfg.contextResolver.scheme = ctx -> {
        String proto = ctx.header("X-Forwarded-Proto");
        boolean said = proto != null && (proto.equalsIgnoreCase("https") || proto.equalsIgnoreCase("http"));
        return said && proxies.trusts(ctx.req().getRemoteAddr()) ? proto.toLowerCase(Locale.ROOT)
            : ctx.req().getScheme();
      };
      cfg.contextResolver.host = ctx -> {
        String forwarded = ctx.header("X-Forwarded-Host");
        return forwarded != null && !forwarded.isBlank() && proxies.trusts(ctx.req().getRemoteAddr())
            ? forwarded.split(",")[0].strip() : ctx.header("Host");
      };
      log.info("trusting X-Forwarded-For, -Proto and -Host from {}", String.join(", ", proxies.patterns()));
    }
    cfg.requestLogger.http((ctx, millis) -> {
      metrics.recordRequest(ctx, millis);
      if (settings.requestLog()) RequestLog.write(ctx, millis);
    });
    ClientLimits clients = settings.clients();
    cfg.http.maxRequestSize = clients.maxBodyBytes();
    ConnectionsPerAddress connections = new ConnectionsPerAddress(clients.connectionsPerAddress(), clients.ipv6PrefixBits(), proxies,
        metrics.registry());
    cfg.jetty.modifyServer(server -> {
      // Javalin puts its servlet handler inside the innermost wrapper. The graceful handler counts requests in flight
      // so stop() can wait; the thread limit lets one address have only so many requests on threads at once (the
      // rest wait without a thread), so slow uploads from one address cannot take every thread.
      GracefulHandler graceful = new GracefulHandler();
      ThreadLimitHandler perAddress = proxies.isEmpty() ? new ThreadLimitHandler()
          : new ThreadLimitHandler("X-Forwarded-For");
      perAddress.setThreadLimit(clients.requestsPerAddress());
      graceful.setHandler(perAddress);
      server.setHandler(graceful);
      server.setStopTimeout(settings.drainTimeout().toMillis());
      server.addEventListener(new LifeCycle.Listener() {
        @Override
        public void lifeCycleStarting(LifeCycle event) {
          for (Connector connector : server.getConnectors()) {
            if (connector instanceof AbstractConnector c) c.setIdleTimeout(clients.idleTimeoutSeconds() * 1000L);
            connector.addEventListener(connections);
          }
        }
      });
    });
  }

  /**
   * A request body declared longer than any route takes is refused before a byte of it is read; a live stream
   * beyond the client's share is refused before it begins.
   */
  private void refuseOverLimits(RoutesConfig routes) {
    ClientLimits clients = settings.clients();
    long max = clients.maxBodyBytes();
    routes.before(ctx -> {
      ctx.attribute(JsonRequests.UPLOAD_SECONDS, clients.uploadSeconds());
      String accept = ctx.header("Accept");
      if (accept != null && accept.contains("text/event-stream")) liveStreams.admit(ctx);
      long declared = ctx.req().getContentLengthLong();
      if (declared > max) {
        ctx.header("Connection", "close");
        throw new ContentTooLargeResponse("the request body is " + declared + " bytes; no request here takes more than "
            + max + " bytes");
      }
    });
  }

  /** Registers {@code GET /metrics} as the settings allow, and the early refusal of huge request bodies. */
  public void register(RoutesConfig routes) {
    refuseOverLimits(routes);
    routes.after(ctx -> JsonRequests.drainUnread(ctx, settings.clients().maxBodyBytes()));
    routes.after(liveStreams::settled);
    metrics.register(routes, settings.metrics());
  }

  /** Measures the sandbox: runs by outcome, queue depth, busy workers. */
  public void watch(SandboxService sandbox) {
    SandboxMeters.bind(sandbox, metrics.registry());
  }

  /** First steps of a graceful stop: refuse new connections, then end live streams so their clients reconnect. */
  public void beginShutdown(Javalin javalin) {
    if (javalin.jettyServer().started()) {
      for (Connector connector : javalin.jettyServer().server().getConnectors()) {
        connector.shutdown();   // Graceful: closes the listening socket
      }
      log.info("shutdown: no longer accepting connections; letting requests in flight finish (up to {} s)",
          settings.drainTimeout().toSeconds());
    }
    liveStreams.closeAll();
  }

  @Override
  public void close() {
    liveStreams.stop();
    asyncWork.shutdownNow();
    metrics.close();
  }
}
