package lab.exactlyonce.web;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.router.EndpointNotFound;
import org.eclipse.jetty.http.BadMessageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The one place errors are rendered. A bad request (an {@link HttpResponseException} such as Javalin's
 * {@code BadRequestResponse}) keeps its status and message; anything else is a bug, logged in full and shown only
 * as "internal error"; a {@link TooBusyException} is a 429 with {@code Retry-After}. API paths answer {@code {"error": "..."}}; pages answer a short HTML page.
 */
public final class ErrorResponses {
  private static final Logger log = LoggerFactory.getLogger(ErrorResponses.class);

  private ErrorResponses() {}

  public static void register(RoutesConfig routes) {
    routes.exception(EndpointNotFound.class, (e, ctx) -> render(ctx, 404, ctx.path().startsWith("/api/")
        ? "no API endpoint " + ctx.method() + " " + ctx.path()
        : "no page at " + ctx.path()));
    routes.exception(HttpResponseException.class, (e, ctx) -> render(ctx, e.getStatus(), e.getMessage()));
    routes.exception(TooBusyException.class, (e, ctx) -> {
      ctx.header("Retry-After", String.valueOf(e.retryAfterSeconds()));
      render(ctx, 429, e.getMessage() + "; try again in " + e.retryAfterSeconds() + " s");
    });
    // Jetty's verdict on a request it could not read (a form or body arriving too slowly, a malformed one).
    routes.exception(BadMessageException.class, (e, ctx) -> {
      HttpResponseException answer = JsonRequests.unreadable(e);
      render(ctx, answer.getStatus(), answer.getMessage());
    });
    routes.exception(Exception.class, (e, ctx) -> {
      log.error("unhandled error on {} {}", ctx.method(), ctx.path(), e);
      render(ctx, 500, "internal error; the server log has the details");
    });
    routes.error(404, ctx -> {
      if (ctx.result() == null || ctx.result().isEmpty()) render(ctx, 404, "no page at " + ctx.path());
    });
    routes.error(405, ctx -> render(ctx, 405, ctx.method() + " is not allowed on " + ctx.path()));
  }

  static void render(Context ctx, int status, String message) {
    ctx.status(status);
    if (ctx.path().startsWith("/api/") || ctx.header("Accept") != null && ctx.header("Accept").contains("json")) {
      ctx.json(Map.of("error", message));
    } else {
      ctx.html(Pages.errorPage(status, HttpStatus.forStatus(status).getMessage(), message));
    }
  }
}
