package lab.exactlyonce.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.sandbox.engine.RunResult;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP in and out for the sandbox: {@code POST /api/run}, {@code GET /api/snippets} and
 * {@code GET /api/snippets/{id}}. Validates the request, names what is wrong in a 4xx, and hands the run to the
 * {@link Sandbox} without blocking an HTTP thread. The client key is the remote IP address.
 */
public final class SandboxRoutes {
  private final Sandbox sandbox;
  private final SnippetCatalog snippets;
  private final ObjectMapper json = new ObjectMapper();

  public SandboxRoutes(Sandbox sandbox, SnippetCatalog snippets) {
    this.sandbox = sandbox;
    this.snippets = snippets;
  }

  record SnippetSummary(String id, String title, String lesson) {}

  record SnippetDetail(String id, String title, String lesson, String summary, String source, String expectedOutput,
                       String explanation) {}

  public void register(RoutesConfig routes) {
    routes.post("/api/run", this::run);
    routes.get("/api/snippets", ctx -> ctx.json(snippets.all().stream()
        .map(s -> new SnippetSummary(s.id(), s.title(), s.lesson())).toList()));
    routes.get("/api/snippets/{id}", ctx -> {
      String id = ctx.pathParam("id");
      Snippet s = snippets.find(id).orElseThrow(() -> new NotFoundResponse("no snippet '" + id + "'"));
      ctx.json(new SnippetDetail(s.id(), s.title(), s.lesson(), s.summary(), s.source(), s.expectedOutput(),
          s.explanation()));
    });
  }

  private void run(Context ctx) {
    String source = sourceOf(ctx);
    CompletableFuture<RunResult> result;
    try {
      result = sandbox.run(ctx.ip(), source);
    } catch (Sandbox.BusyException busy) {
      ctx.header("Retry-After", String.valueOf(busy.retryAfterSeconds()));
      throw new HttpResponseException(429, busy.getMessage() + "; try again in " + busy.retryAfterSeconds() + " s");
    }
    ctx.future(() -> result.thenAccept(ctx::json));
  }

  private String sourceOf(Context ctx) {
    String type = ctx.contentType();
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!mediaType.equals("application/json")) {
      throw new HttpResponseException(415, "send the run as JSON: Content-Type must be application/json, got "
          + (type == null || type.isBlank() ? "none" : "'" + type + "'"));
    }
    JsonNode body;
    try {
      body = json.readTree(ctx.bodyAsBytes());
    } catch (JsonProcessingException e) {
      throw new BadRequestResponse("the body is not valid JSON; send {\"source\": \"...\"}");
    } catch (java.io.IOException e) {
      throw new BadRequestResponse("the body could not be read");
    }
    if (body == null || body.isMissingNode() || !body.isObject()) {
      throw new BadRequestResponse("the body must be a JSON object: {\"source\": \"...\"}");
    }
    List<String> unknown = new ArrayList<>();
    body.fieldNames().forEachRemaining(name -> {
      if (!name.equals("source")) unknown.add("'" + name + "'");
    });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse((unknown.size() == 1 ? "unknown field " : "unknown fields ")
          + String.join(", ", unknown) + "; the only field is 'source'");
    }
    JsonNode source = body.get("source");
    if (source == null || source.isNull()) throw new BadRequestResponse("'source' is missing: send {\"source\": \"...\"}");
    if (!source.isTextual()) {
      throw new BadRequestResponse("'source' must be a string, got " + kind(source));
    }
    String text = source.textValue();
    if (text.isBlank()) throw new BadRequestResponse("'source' is blank: there is nothing to run");
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    int limit = sandbox.settings().limits().maxSourceBytes();
    if (bytes > limit) {
      throw new HttpResponseException(413, "the source is " + bytes + " bytes; the limit is " + limit + " bytes");
    }
    return text;
  }

  private static String kind(JsonNode node) {
    if (node.isNumber()) return "a number";
    if (node.isBoolean()) return "a boolean";
    if (node.isArray()) return "an array";
    if (node.isObject()) return "an object";
    return node.getNodeType().name().toLowerCase(Locale.ROOT);
  }
}
