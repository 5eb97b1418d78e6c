package lab.exactlyonce.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ContentTooLargeResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.UnsupportedMediaTypeResponse;
import org.eclipse.jetty.http.BadMessageException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a JSON request body with a size limit; every way it can be wrong is a 4xx naming the problem. A route
 * reads its body with {@link #read}, naming the fields it accepts, then takes each field from the {@link JsonFields}:
 * <pre>{@code
 * JsonFields body = JsonRequests.read(ctx, 2048, List.of("lesson", "mode"));
 * String lesson = body.text("lesson");                 // 400 "'lesson' is required"
 * Optional<String> mode = body.optionalText("mode");  // 400 "'mode' must be a string, got 3"
 * }</pre>
 */
public final class JsonRequests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonRequests() {}

  /**
   * The body as a JSON object with no fields but {@code fields}.
   *
   * @param fields every field the body may have, in the order an "unknown field" message lists them
   * @throws UnsupportedMediaTypeResponse (415) unless the body is declared {@code application/json}
   * @throws ContentTooLargeResponse (413) when the body is longer than {@code maxBytes}
   * @throws BadRequestResponse (400) when the body is not a JSON object, or has another field
   */
  public static JsonFields read(Context ctx, long maxBytes, List<String> fields) {
    return JsonFields.of(object(ctx, maxBytes), "", fields);
  }

  /**
   * The body as a JSON object, whatever its fields; {@link #read} also checks them.
   *
   * @throws UnsupportedMediaTypeResponse (415) unless the body is declared {@code application/json}
   * @throws ContentTooLargeResponse (413) when the body is longer than {@code maxBytes}
   * @throws BadRequestResponse (400) when the body is not a JSON object
   */
  public static ObjectNode object(Context ctx, long maxBytes) {
    String type = ctx.contentType();
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new UnsupportedMediaTypeResponse("the request body must be JSON sent with 'Content-Type: application/json', got "
          + (type == null ? "no Content-Type" : "'" + type + "'"));
    }
    byte[] body = bytes(ctx, maxBytes);
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new BadRequestResponse("the request body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadRequestResponse("the request body could not be read");
    }
    if (node == null || !node.isObject()) throw new BadRequestResponse("the request body must be a JSON object");
    return (ObjectNode) node;
  }

  /**
   * The request body, at most {@code maxBytes} (as declared, and as read). One still arriving when the upload time
   * ({@code --upload-seconds}, in the request attribute {@link #UPLOAD_SECONDS}) after reading began has run out, or
   * that stops arriving until the connection's idle timeout, is a 408; one cut off on the way a 400; each with a
   * message that says so.
   *
   * @throws ContentTooLargeResponse (413) when the body is over the limit
   */
  public static byte[] bytes(Context ctx, long maxBytes) {
    ctx.attribute(BODY_READ, true);
    refuseDeclaredOver(ctx, maxBytes);
    Integer configured = ctx.attribute(UPLOAD_SECONDS);
    int seconds = configured == null ? DEFAULT_UPLOAD_SECONDS : configured;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      InputStream in = ctx.req().getInputStream();
      int n;
      while ((n = in.read(buffer)) != -1) {
        body.write(buffer, 0, n);
        if (body.size() > maxBytes) {
          throw new ContentTooLargeResponse("the request body is longer than the limit of " + maxBytes + " bytes");
        }
        // Checked after every read, so a body trickled a byte at a time holds a thread no longer than this.
        if (System.nanoTime() > deadline) {
          ctx.header("Connection", "close");
          throw new HttpResponseException(408, "the request body arrived too slowly (it took over " + seconds
              + " s); send it again");
        }
      }
    } catch (HttpResponseException e) {
      throw e;
    } catch (Exception e) {
      throw unreadable(e);
    }
    return body.toByteArray();
  }

  /**
   * Reads and drops what is left of the request body once a route has answered without needing it, before the answer
   * goes out, so that the connection can take the client's next request. Left unread, a body that was still arriving
   * when the route answered makes the server end the connection after the answer; a client that had already sent its
   * next request on it (HTTP/1.1 keep-alive; the JDK's client does not send a POST again) got no answer at all. A body
   * too long or too slow to read ends the connection, and the answer says so ({@code Connection: close}).
   */
  public static void drainUnread(Context ctx, long maxBytes) {
    long declared = ctx.req().getContentLengthLong();
    if (declared == 0 || declared < 0 && ctx.header("Transfer-Encoding") == null) return;
    // The route read it, or tried to and refused it as too long or too slow, which ends the connection anyway; a
    // form's routes read it through the servlet's parameters.
    if (ctx.attribute(BODY_READ) != null) return;
    String type = ctx.contentType();
    if (type != null && type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) return;
    try {
      bytes(ctx, maxBytes);
    } catch (RuntimeException e) {
      ctx.header("Connection", "close");
    }
  }

  /** The request attribute set once a route has started reading the body. */
  private static final String BODY_READ = "eolab.body-read";

  /** The request attribute that says how long a body may take to arrive, in seconds (set for every request). */
  public static final String UPLOAD_SECONDS = "eolab.upload-seconds";
  private static final int DEFAULT_UPLOAD_SECONDS = 10;

  /** What to answer when reading a request body failed: Jetty's own verdict on a too slow upload, else a 400. */
  public static HttpResponseException unreadable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BadMessageException bad) {
        int code = bad.getCode();
        return new HttpResponseException(code, code == 408
            ? "the request body arrived too slowly (" + bad.getReason() + "); send it again"
            : "the request could not be read: " + bad.getReason());
      }
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return new HttpResponseException(408, "the request body stopped arriving before it was complete; send it again");
      }
    }
    return new BadRequestResponse("the request body could not be read: the connection broke off");
  }

  /**
   * Refuses a body whose declared length is over {@code maxBytes} before reading any of it: a client that declares
   * a long body and then trickles it never gets a thread waiting for bytes the route would refuse anyway.
   *
   * @throws ContentTooLargeResponse (413) when {@code Content-Length} is over the limit
   */
  public static void refuseDeclaredOver(Context ctx, long maxBytes) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > maxBytes) {
      ctx.header("Connection", "close");
      throw new ContentTooLargeResponse("the request body is " + declared + " bytes; the limit is " + maxBytes + " bytes");
    }
  }
}
