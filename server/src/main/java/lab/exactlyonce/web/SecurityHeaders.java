package lab.exactlyonce.web;

import io.javalin.config.RoutesConfig;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The headers every answer carries so that a browser keeps the pages to themselves: a content security policy that
 * admits scripts, styles, images and connections from this site only (the pages have no inline script or style, and
 * every asset is served here: classrooms can be offline), no MIME sniffing, no referrer (join links carry a class
 * code), and no framing by other sites unless the host names the sites allowed to embed the app.
 */
public final class SecurityHeaders {
  private static final Pattern SOURCE = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?|'self'");

  private SecurityHeaders() {}

  /** The policy, with {@code frameAncestors} ({@code 'none'}, or the sites that may embed the pages). */
  public static String policy(List<String> frameAncestors) {
    String ancestors = frameAncestors.isEmpty() ? "'none'" : String.join(" ", frameAncestors);
    return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
        + "connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors " + ancestors;
  }

  /**
   * Checks the sites an instructor lets embed the app ({@code --frame-ancestors}): origins such as
   * {@code https://lms.example.edu}, or {@code 'self'}.
   *
   * @return null when all are fine, else what is wrong
   */
  public static String problemWith(List<String> frameAncestors) {
    for (String source : frameAncestors) {
      if (!SOURCE.matcher(source).matches()) {
        return "--frame-ancestors takes origins such as https://lms.example.edu (or 'self'), comma-separated; got '"
            + source + "'";
      }
    }
    return null;
  }

  public static void register(RoutesConfig routes, List<String> frameAncestors) {
    String policy = policy(frameAncestors);
    routes.before(ctx -> {
      ctx.header("Content-Security-Policy", policy);
      ctx.header("X-Content-Type-Options", "nosniff");
      ctx.header("Referrer-Policy", "no-referrer");
      if (frameAncestors.isEmpty()) ctx.header("X-Frame-Options", "DENY");
      ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    });
  }
}
