package lab.exactlyonce.sandbox;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.ContentTooLargeResponse;
import lab.exactlyonce.web.JsonFields;

import java.nio.charset.StandardCharsets;

/**
 * The learner's code in a request's {@code source} field, for every route that hands code to the {@link Sandbox}
 * (a run, an exercise check): a string that is not blank and at most the sandbox's source limit.
 */
public final class SourceField {
  private SourceField() {}

  /** The most a body carrying {@code maxSourceBytes} of source may weigh: JSON escapes can make it a few times longer. */
  public static long maxBodyBytes(int maxSourceBytes) {
    return 4L * maxSourceBytes + 1024;
  }

  /**
   * @param action what the code is sent for ("run", "check"), for the message about a blank source
   * @throws BadRequestResponse (400) when the field is missing, not a string or blank
   * @throws ContentTooLargeResponse (413) when the source is over {@code maxSourceBytes}
   */
  public static String read(JsonFields body, int maxSourceBytes, String action) {
    return withinLimit(notBlank(body.text("source"), action), maxSourceBytes);
  }

  /** @throws BadRequestResponse (400) when {@code source} is blank */
  public static String notBlank(String source, String action) {
    if (source.isBlank()) throw new BadRequestResponse("'source' is blank: there is nothing to " + action);
    return source;
  }

  /** @throws ContentTooLargeResponse (413) when {@code source} is over {@code maxSourceBytes} in UTF-8 */
  public static String withinLimit(String source, int maxSourceBytes) {
    int bytes = source.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxSourceBytes) {
      throw new ContentTooLargeResponse("the source is " + bytes + " bytes; the limit is " + maxSourceBytes + " bytes");
    }
    return source;
  }
}
