package lab.exactlyonce.ops;

import io.javalin.http.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;

/**
 * One line per finished request: method, path (never the query string, which could carry a secret), status,
 * duration and client address. Cookies and other headers are never logged.
 */
final class RequestLog {
  private static final Logger log = LoggerFactory.getLogger("lab.exactlyonce.requests");

  private RequestLog() {}

  static String line(Context ctx, float millis) {
    return String.format(Locale.ROOT, "%s %s %d %.1fms %s", ctx.method().name(), printable(ctx.path()),
        ctx.statusCode(), millis, ctx.ip());
  }

  static void write(Context ctx, float millis) {
    if (log.isInfoEnabled()) log.info(line(ctx, millis));
  }

  /** A path is user input: keep control characters out of the log so a request cannot forge log lines. */
  private static String printable(String path) {
    StringBuilder sb = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      sb.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return sb.toString();
  }
}
