package lab.exactlyonce.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ContentTooLargeResponse;
import io.javalin.http.Context;
import io.javalin.http.UnsupportedMediaTypeResponse;

/** Reads a JSON object request body with a size limit; every way it can be wrong is a 4xx naming the problem. */
public final class JsonRequests {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonRequests() {}

  /**
   * @throws UnsupportedMediaTypeResponse (415) unless the body is declared {@code application/json}
   * @throws ContentTooLargeResponse (413) when the body is longer than {@code maxBytes}
   * @throws BadRequestResponse (400) when the body is not a JSON object
   */
  public static ObjectNode object(Context ctx, int maxBytes) {
    String type = ctx.contentType();
    if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
      throw new UnsupportedMediaTypeResponse("the request body must be JSON sent with 'Content-Type: application/json', got "
          + (type == null ? "no Content-Type" : "'" + type + "'"));
    }
    byte[] body = ctx.bodyAsBytes();
    if (body.length > maxBytes) {
      throw new ContentTooLargeResponse("the request body is " + body.length + " bytes; the limit is " + maxBytes + " bytes");
    }
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new BadRequestResponse("the request body is not valid JSON: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new BadRequestResponse("the request body could not be read");
    }
    if (node == null || !node.isObject()) throw new BadRequestResponse("the request body must be a JSON object");
    return (ObjectNode) node;
  }
}
