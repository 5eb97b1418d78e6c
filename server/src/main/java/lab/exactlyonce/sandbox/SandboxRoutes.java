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

import lab.exactlyonce.web.JsonRequests;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP in and out for the sandbox: {@code POST /api/run}, {@code GET /api/snippets} and
 * {@code GET /api/snippets/{id}} (with its knobs). A run may name a {@code snippet} and set its knobs in
 * {@code params}; without {@code source} the snippet's own source runs. Validates the request, names what is wrong in a 4xx, and hands the run to the
 * {@link CodeRunner} without blocking an HTTP thread. The client key is the remote IP address.
 */
public final class SandboxRoutes {
  private final CodeRunner sandbox;
  private final SnippetCatalog snippets;
  private static final List<String> FIELDS = List.of("source", "snippet", "params");
  private final ObjectMapper json = new ObjectMapper();

  public SandboxRoutes(CodeRunner sandbox, SnippetCatalog snippets) {
    this.sandbox = sandbox;
    this.snippets = snippets;
  }

  record SnippetSummary(String id, String title, String lesson) {}

  record SnippetDetail(String id, String title, String lesson, String summary, String source, String expectedOutput,
                       String explanation, List<Knob> knobs) {}

  public void register(RoutesConfig routes) {
    routes.post("/api/run", this::run);
    routes.get("/api/snippets", ctx -> ctx.json(snippets.all().stream()
        .map(s -> new SnippetSummary(s.id(), s.title(), s.lesson())).toList()));
    routes.get("/api/snippets/{id}", ctx -> {
      String id = ctx.pathParam("id");
      Snippet s = snippets.find(id).orElseThrow(() -> new NotFoundResponse("no snippet '" + id + "'"));
      ctx.json(new SnippetDetail(s.id(), s.title(), s.lesson(), s.summary(), s.source(), s.expectedOutput(),
          s.explanation(), s.knobs()));
    });
  }

  private void run(Context ctx) {
    String source = sourceOf(ctx);
    CompletableFuture<RunResult> result;
    try {
      result = sandbox.submit(RunRequest.run(ctx.ip(), source));
    } catch (Sandbox.BusyException busy) {
      throw tooBusy(ctx, busy);
    }
    ctx.future(() -> result.thenAccept(ctx::json));
  }

  /** The answer to a run the sandbox's queue refused: 429 with {@code Retry-After}. */
  public static HttpResponseException tooBusy(Context ctx, Sandbox.BusyException busy) {
    ctx.header("Retry-After", String.valueOf(busy.retryAfterSeconds()));
    return new HttpResponseException(429, busy.getMessage() + "; try again in " + busy.retryAfterSeconds() + " s");
  }

  private String sourceOf(Context ctx) {
    String type = ctx.contentType();
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!mediaType.equals("application/json")) {
      throw new HttpResponseException(415, "send the run as JSON: Content-Type must be application/json, got "
          + (type == null || type.isBlank() ? "none" : "'" + type + "'"));
    }
    // JSON escapes can make the body a few times longer than the source it carries.
    byte[] raw = JsonRequests.bytes(ctx, 4L * sandbox.limits().maxSourceBytes() + 1024);
    JsonNode body;
    try {
      body = json.readTree(raw);
    } catch (JsonProcessingException e) {
      throw new BadRequestResponse("the body is not valid JSON; send {\"source\": \"...\"}");
    } catch (java.io.IOException e) {
      throw new BadRequestResponse("the body is not valid JSON; send {\"source\": \"...\"}");
    }
    if (body == null || body.isMissingNode() || !body.isObject()) {
      throw new BadRequestResponse("the body must be a JSON object: {\"source\": \"...\"}");
    }
    JsonRequests.onlyFields(body, FIELDS);
    Snippet snippet = snippetOf(body.get("snippet"));
    JsonNode source = body.get("source");
    String text;
    if ((source == null || source.isNull()) && snippet != null) {
      text = snippet.source();
    } else {
      if (source == null || source.isNull()) throw new BadRequestResponse("'source' is missing: send {\"source\": \"...\"}");
      if (!source.isTextual()) {
        throw new BadRequestResponse("'source' must be a string, got " + kind(source));
      }
      text = source.textValue();
    }
    if (text.isBlank()) throw new BadRequestResponse("'source' is blank: there is nothing to run");
    text = withParams(text, snippet, body.get("params"));
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    int limit = sandbox.limits().maxSourceBytes();
    if (bytes > limit) {
      throw new HttpResponseException(413, "the source is " + bytes + " bytes; the limit is " + limit + " bytes");
    }
    return text;
  }

  private Snippet snippetOf(JsonNode id) {
    if (id == null || id.isNull()) return null;
    if (!id.isTextual()) throw new BadRequestResponse("'snippet' must be a snippet id string, got " + kind(id));
    return snippets.find(id.textValue()).orElseThrow(() -> new BadRequestResponse("no snippet '" + id.textValue()
        + "'; 'snippet' must be one of: " + String.join(", ", snippets.all().stream().map(Snippet::id).toList())));
  }

  /** The source with the knobs in {@code params} rewritten; each must be a declared knob of the snippet, in range. */
  private static String withParams(String source, Snippet snippet, JsonNode params) {
    if (params == null || params.isNull()) return source;
    if (snippet == null) throw new BadRequestResponse("'params' needs 'snippet': knobs belong to a snippet");
    if (!params.isObject()) throw new BadRequestResponse("'params' must be an object of knob values, got " + kind(params));
    Map<String, Object> values = new LinkedHashMap<>();
    var names = params.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      JsonNode value = params.get(name);
      Knob knob = snippet.knob(name).orElseThrow(() -> new BadRequestResponse("snippet '" + snippet.id()
          + "' has no knob '" + name + "'" + (snippet.knobs().isEmpty() ? "; it has no knobs"
          : "; its knobs: " + String.join(", ", snippet.knobs().stream().map(Knob::name).toList()))));
      String culprit = "knob '" + name + "' of snippet '" + snippet.id() + "'";
      if (knob.numeric()) {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
          throw new BadRequestResponse(culprit + " takes " + knob.range() + ", got " + value);
        }
        long v = value.longValue();
        if (v < (Long) knob.min() || v > (Long) knob.max()) {
          throw new BadRequestResponse(culprit + " must be from " + knob.min() + " to " + knob.max() + ", got " + v);
        }
        values.put(name, v);
      } else {
        if (!value.isBoolean()) throw new BadRequestResponse(culprit + " takes " + knob.range() + ", got " + value);
        values.put(name, value.booleanValue());
      }
    }
    for (String name : values.keySet()) {
      SnippetParameters.Declaration declared = SnippetParameters.declarations(source).get(name);
      Knob knob = snippet.knob(name).orElseThrow();
      if (declared == null || !declared.type().equals(knob.type())) {
        throw new BadRequestResponse("the source no longer declares 'static final " + knob.type() + " " + name
            + " = ...;', which knob '" + name + "' sets; restore that line or reset the snippet");
      }
    }
    return SnippetParameters.rewrite(source, values);
  }

  private static String kind(JsonNode node) {
    if (node.isNumber()) return "a number";
    if (node.isBoolean()) return "a boolean";
    if (node.isArray()) return "an array";
    if (node.isObject()) return "an object";
    return node.getNodeType().name().toLowerCase(Locale.ROOT);
  }
}
