package lab.exactlyonce.web;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.HandlerType;

import java.net.URI;
import java.util.Set;

/**
 * CSRF protection for every state-changing API request (POST, PUT, PATCH, DELETE under {@code /api/}): the browser
 * must say the request comes from one of this site's own pages. Browsers send {@code Sec-Fetch-Site} and/or
 * {@code Origin} on such requests; a page on another site cannot forge either. So a request is accepted when
 * {@code Sec-Fetch-Site} is {@code same-origin}, or, without that header, when {@code Origin}'s host and port equal
 * the {@code Host} the request was sent to. Anything else, including a request carrying neither header, is refused
 * with 403. Together with the SameSite=Lax learner cookie and JSON-only bodies (a cross-site form cannot send
 * {@code application/json} without a preflight) this is the OWASP "verify origin with standard headers" defence.
 * Paths that change no stored state (running a snippet) can be exempted by {@code App}.
 */
public final class SameOriginGuard {
  private static final Set<HandlerType> STATE_CHANGING = Set.of(HandlerType.POST, HandlerType.PUT, HandlerType.PATCH,
      HandlerType.DELETE);

  private SameOriginGuard() {}

  /** @param exempt exact paths that store nothing, such as {@code /api/run} */
  public static void register(RoutesConfig routes, Set<String> exempt) {
    Set<String> paths = Set.copyOf(exempt);
    routes.before("/api/*", ctx -> {
      if (!paths.contains(ctx.path())) check(ctx);
    });
  }

  /** Refuses (403) a state-changing request that does not come from this site's own pages. */
  public static void check(Context ctx) {
    if (!STATE_CHANGING.contains(ctx.method())) return;
    String fetchSite = ctx.header("Sec-Fetch-Site");
    if (fetchSite != null) {
      if (fetchSite.equals("same-origin")) return;
      throw new ForbiddenResponse("cross-site request refused: Sec-Fetch-Site is '" + fetchSite
          + "'; changes are only accepted from this site's own pages");
    }
    String origin = ctx.header("Origin");
    String host = ctx.host();
    if (origin == null || origin.isBlank()) {
      throw new ForbiddenResponse("request refused: a " + ctx.method() + " to " + ctx.path()
          + " must carry an Origin header naming this site (browsers send it; other clients must add it)");
    }
    if (host == null || !host.equalsIgnoreCase(hostAndPort(origin))) {
      throw new ForbiddenResponse("cross-site request refused: Origin '" + origin + "' is not this site (" + host + ")");
    }
  }

  private static String hostAndPort(String origin) {
    try {
      URI uri = URI.create(origin.trim());
      if (uri.getHost() == null) return "";
      int port = uri.getPort();
      boolean defaultPort = port == -1 || ("http".equals(uri.getScheme()) && port == 80)
          || ("https".equals(uri.getScheme()) && port == 443);
      return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    } catch (IllegalArgumentException e) {
      return "";
    }
  }
}
