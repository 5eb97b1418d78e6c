package lab.exactlyonce.snippet;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.SourceField;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.FutureAnswers;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP in and out for the sandbox: {@code POST /api/run}, {@code GET /api/snippets},
 * {@code GET /api/snippets/{id}} (with its knobs) and {@code POST /api/snippets/{id}/set-knobs}. A run may name a
 * {@code snippet} and set its knobs in {@code params}; without {@code source} the snippet's own source runs.
 * {@code set-knobs} answers {@code {source}}, the learner's source with those knobs set as a run would set them, so
 * the editor shows the code that runs. Validates the request, names what is wrong
 * in a 4xx, and hands the run to the {@link CodeRunner} without blocking an HTTP thread; a full queue is answered 429
 * by {@code web.ErrorResponses}. A shipped snippet's unchanged source is answered from {@link ShippedRuns} without a
 * worker. A run waits in the queue as its learner, or its network without a learner cookie ({@link ClientKeys}).
 */
public final class SnippetRoutes {
  private final CodeRunner sandbox;
  private final SnippetCatalog snippets;
  private final ClientKeys clients;
  private final ShippedRuns shipped;
  private static final List<String> FIELDS = List.of("source", "snippet", "params");
  private static final List<String> KNOB_FIELDS = List.of("source", "params");

  /**
   * @param clients who a run waits in the sandbox's queue as: its learner, or its network without a learner cookie
   * @param shipped what the shipped snippets printed at the server's start, which answers their unchanged sources
   */
  public SnippetRoutes(CodeRunner sandbox, SnippetCatalog snippets, ClientKeys clients, ShippedRuns shipped) {
    this.sandbox = sandbox;
    this.snippets = snippets;
    this.clients = clients;
    this.shipped = shipped;
  }

  record SnippetSummary(String id, String title, String lesson) {}

  record KnobbedSource(String source) {}

  /**
   * A run's answer: the result's fields, and for a shipped snippet's unchanged source {@code shipped}, saying that
   * the result is the one every run of it printed as the server started.
   */
  record RunAnswer(@JsonUnwrapped RunResult result, @JsonInclude(JsonInclude.Include.NON_NULL) Shipped shipped) {}

  /** @param runs how many runs at the server's start printed this, all alike; {@code at} when they ended */
  record Shipped(int runs, String at) {}

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
    routes.post("/api/snippets/{id}/set-knobs", this::setKnobs);
  }

  private void setKnobs(Context ctx) {
    String id = ctx.pathParam("id");
    Snippet snippet = snippets.find(id).orElseThrow(() -> new NotFoundResponse("no snippet '" + id + "'"));
    int limit = sandbox.limits().maxSourceBytes();
    JsonFields body = JsonRequests.read(ctx, SourceField.maxBodyBytes(limit), KNOB_FIELDS);
    ObjectNode params = body.optionalObject("params")
        .orElseThrow(() -> new BadRequestResponse("'params' is required: the knobs to set, by name"));
    String source = SourceField.read(body, limit, "set knobs in");
    ctx.json(new KnobbedSource(SourceField.withinLimit(withParams(source, snippet, params), limit)));
  }

  private void run(Context ctx) {
    String source = sourceOf(ctx);
    Optional<ShippedRuns.Kept> kept = shipped.of(source);
    if (kept.isPresent()) {
      ctx.json(new RunAnswer(kept.get().result(), new Shipped(kept.get().runs(), kept.get().at().toString())));
      return;
    }
    CompletableFuture<RunResult> result = sandbox.submit(RunRequest.run(clients.client(ctx), source)); // a full queue is a 429 (ErrorResponses)
    FutureAnswers.answer(ctx, result, r -> ctx.json(new RunAnswer(r, null)));
  }

  /** The source to run: the body's {@code source}, or the named snippet's own, with its knobs set. */
  private String sourceOf(Context ctx) {
    int limit = sandbox.limits().maxSourceBytes();
    JsonFields body = JsonRequests.read(ctx, SourceField.maxBodyBytes(limit), FIELDS);
    Snippet snippet = snippetOf(body);
    String text = snippet != null && !body.has("source") ? snippet.source() : body.text("source");
    String withKnobs = withParams(SourceField.notBlank(text, "run"), snippet, body.optionalObject("params").orElse(null));
    return SourceField.withinLimit(withKnobs, limit);
  }

  private Snippet snippetOf(JsonFields body) {
    return body.optionalText("snippet").map(id -> snippets.find(id).orElseThrow(() -> new BadRequestResponse("no snippet '"
        + id + "'; 'snippet' must be one of: " + String.join(", ", snippets.all().stream().map(Snippet::id).toList()))))
        .orElse(null);
  }

  /** The source with the knobs in {@code params} rewritten; each must be a declared knob of the snippet, in range. */
  private static String withParams(String source, Snippet snippet, ObjectNode params) {
    if (params == null) return source;
    if (snippet == null) throw new BadRequestResponse("'params' needs 'snippet': knobs belong to a snippet");
    try {
      return KnobSettings.apply(snippet, source, params);
    } catch (KnobSettings.Refused refused) {
      throw new BadRequestResponse(refused.getMessage());
    }
  }
}
