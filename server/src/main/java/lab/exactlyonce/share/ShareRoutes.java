package lab.exactlyonce.share;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.TooManyRequestsResponse;
import lab.exactlyonce.sandbox.SourceField;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;
import lab.exactlyonce.web.RateLimiter;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * HTTP in and out for short share links (see the package description): {@code POST /api/shares},
 * {@code GET /api/shares/{id}} and {@code GET /s/{id}}. The client key for the rate limit is the remote address.
 */
public final class ShareRoutes {
  private static final List<String> FIELDS = List.of("source", "snippet");
  /** The longest source the {@code shares.source} column holds, whatever the sandbox's own limit is. */
  private static final int MAX_STORED_BYTES = 1_000_000;

  private final ShareStore store;
  private final SnippetCatalog snippets;
  private final int maxSourceBytes;
  private final RateLimiter perAddress;

  /** @param maxSourceBytes the sandbox's source limit: a share holds no code the sandbox would refuse to run */
  public ShareRoutes(ShareSettings settings, Database db, SnippetCatalog snippets, int maxSourceBytes, Clock clock) {
    this.store = new ShareStore(db, clock);
    this.snippets = snippets;
    this.maxSourceBytes = Math.min(maxSourceBytes, MAX_STORED_BYTES);
    this.perAddress = new RateLimiter(settings.sharesPerMinutePerAddress(), clock);
  }

  record Created(String id, String url) {}

  record Stored(String id, String snippet, String source, String url) {}

  public void register(RoutesConfig routes) {
    routes.post("/api/shares", this::create);
    routes.get("/api/shares/{id}", ctx -> {
      Share share = find(ctx.pathParam("id"));
      ctx.json(new Stored(share.id(), share.snippet().orElse(null), share.source(), share.url()));
    });
    routes.get("/s/{id}", ctx -> ctx.redirect(pageOf(find(ctx.pathParam("id"))), HttpStatus.SEE_OTHER));
  }

  private void create(Context ctx) {
    OptionalLong wait = perAddress.take(ctx.ip());
    if (wait.isPresent()) {
      ctx.header("Retry-After", String.valueOf(wait.getAsLong()));
      throw new TooManyRequestsResponse("too many share links from your address; try again in " + wait.getAsLong() + " s");
    }
    JsonFields body = JsonRequests.read(ctx, SourceField.maxBodyBytes(maxSourceBytes), FIELDS);
    String source = SourceField.read(body, maxSourceBytes, "share");
    Optional<String> snippet = body.optionalText("snippet").map(this::knownSnippet);
    Share share = store.keep(ShareIds.candidates(snippet, source), snippet, source);
    ctx.json(new Created(share.id(), share.url()));
  }

  private String knownSnippet(String id) {
    if (snippets.find(id).isPresent()) return id;
    throw new BadRequestResponse("no snippet '" + id + "'; 'snippet' must be one of: "
        + String.join(", ", snippets.all().stream().map(Snippet::id).toList()));
  }

  private Share find(String id) {
    if (!ShareIds.wellFormed(id)) {
      throw new NotFoundResponse("no share link at this address: a share link is /s/ and 12 letters, digits, '-' or '_'");
    }
    return store.find(id).orElseThrow(() -> new NotFoundResponse("no share link '" + id + "': check that the link is "
        + "complete, or ask for a new one (the Share link button on a lesson's Sandbox tab makes them)"));
  }

  /**
   * The lesson page with the share's code in its snippet's editor: the fragment names the tab, the editor and the
   * share, and the page fetches the code from {@code /api/shares/{id}} (so the address stays short). A share without
   * a snippet, or whose snippet the lessons no longer have, opens in the first demo's editor.
   */
  private String pageOf(Share share) {
    Snippet snippet = share.snippet().flatMap(snippets::find).or(() -> snippets.all().stream().findFirst())
        .orElseThrow(() -> new NotFoundResponse("no lesson here has a Sandbox to open share link '" + share.id() + "' in"));
    return "/lessons/" + snippet.lesson() + "#sandbox/" + snippet.id() + "?share=" + share.id();
  }
}
