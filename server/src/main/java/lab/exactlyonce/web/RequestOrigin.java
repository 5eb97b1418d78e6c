package lab.exactlyonce.web;

import io.javalin.http.Context;

import java.util.Optional;

/**
 * The scheme and host the client asked for. Behind a reverse proxy these are what the proxy says, and only a trusted
 * one: {@code ops.Operations} sets Javalin's scheme and host resolvers from {@code ops.TrustedProxies}, so
 * {@code X-Forwarded-Proto}/{@code -Host} from anyone else are ignored. Read them here, never from the headers.
 */
public final class RequestOrigin {
  private RequestOrigin() {}

  /** Whether the client used HTTPS: cookies set for it are {@code Secure}. */
  public static boolean isHttps(Context ctx) {
    return "https".equalsIgnoreCase(ctx.scheme());
  }

  /** {@code scheme://host[:port]}, for links that are followed from elsewhere (a join link, its QR code). */
  public static String of(Context ctx) {
    return ctx.scheme() + "://" + Optional.ofNullable(ctx.host()).orElse("localhost");
  }
}
