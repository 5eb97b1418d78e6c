package lab.exactlyonce.share;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.TooManyRequestsResponse;
import lab.exactlyonce.sandbox.SourceField;
import lab.exactlyonce.snippet.KnobSettings;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.FairLimit;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP in and out for short share links (see the package description): {@code POST /api/shares},
 * {@code GET /api/shares/{id}} and {@code GET /s/{id}}. Making links is limited per learner and, as a ceiling sized for
 * a class, per network ({@link FairLimit}).
 */
public final class ShareRoutes {
  /** Share links a learner may make a minute (at most the network's ceiling). */
  public static final int PER_LEARNER_PER_MINUTE = 20;
  private static final List<String> FIELDS = List.of("source", "snippet");
  /** The longest source the {@code shares.source} column holds, whatever the sandbox's own limit is. */
  private static final int MAX_STORED_BYTES = 1_000_000;

  private final ShareStore store;
  private final SnippetCatalog snippets;
  private final int maxSourceBytes;
  private final FairLimit limit;
  private final ShareSettings settings;

  /** @param maxSourceBytes the sandbox's source limit: a share holds no code the sandbox would refuse to run */
  public ShareRoutes(ShareSettings settings, Database db, SnippetCatalog snippets, int maxSourceBytes,
                     ClientKeys clients, Clock clock) {
    this.store = new ShareStore(db, clock, settings);
    this.snippets = snippets;
    this.maxSourceBytes = Math.min(maxSourceBytes, MAX_STORED_BYTES);
    this.settings = settings;
    int network = settings.sharesPerMinutePerAddress();
    this.limit = new FairLimit("share links", Math.min(PER_LEARNER_PER_MINUTE, network), network, clients, clock);
  }

  record Created(String id, String url) {}

  /**
   * A share as the page opens it. {@code knobs} are the values the code sets for the knobs of the editor it opens in
   * ({@code KnobSettings.declared}): derived from the code on every opening, never stored apart from it, so the knob
   * fields cannot disagree with the code and links made before knobs travelled open the same way.
   */
  record Stored(String id, String snippet, String source, String url, Map<String, Object> knobs) {}

  public void register(RoutesConfig routes) {
    routes.post("/api/shares", this::create);
    routes.get("/api/shares/{id}", ctx -> {
      Share share = find(ctx.pathParam("id"));
      Map<String, Object> knobs = openedIn(share).map(s -> KnobSettings.declared(s, share.source())).orElse(Map.of());
      ctx.json(new Stored(share.id(), share.snippet().orElse(null), share.source(), share.url(), knobs));
    });
    routes.get("/s/{id}", ctx -> ctx.redirect(pageOf(find(ctx.pathParam("id"))), HttpStatus.SEE_OTHER));
  }

  private void create(Context ctx) {
    limit.take(ctx);
    JsonFields body = JsonRequests.read(ctx, SourceField.maxBodyBytes(maxSourceBytes), FIELDS);
    String source = SourceField.read(body, maxSourceBytes, "share");
    Optional<String> snippet = body.optionalText("snippet").map(this::knownSnippet);
    Share share;
    try {
      share = store.keep(snippet, source);
    } catch (ShareStore.Full full) {
      long seconds = Math.max(60, full.untilRoom.toSeconds());
      ctx.header("Retry-After", String.valueOf(seconds));
      throw new TooManyRequestsResponse("this server's share links are full (they may hold "
          + full.budgetBytes / (1024 * 1024) + " MB of code, --share-storage-mb; a link nobody opens for "
          + settings.unopenedFor().toDays() + " days is removed): use the long link, which holds the code itself, or "
          + "try again in " + seconds + " s");
    }
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
    return store.open(id).orElseThrow(() -> new NotFoundResponse("no share link '" + id + "': check that the link is "
        + "complete, or ask for a new one (the Share link button on a lesson's Sandbox tab makes them); a link nobody "
        + "opens for " + settings.unopenedFor().toDays() + " days is removed"));
  }

  /**
   * The lesson page with the share's code in its snippet's editor: the fragment names the tab, the editor and the
   * share, and the page fetches the code from {@code /api/shares/{id}} (so the address stays short). A share without
   * a snippet, or whose snippet the lessons no longer have, opens in the first demo's editor.
   */
  private String pageOf(Share share) {
    Snippet snippet = openedIn(share)
        .orElseThrow(() -> new NotFoundResponse("no lesson here has a Sandbox to open share link '" + share.id() + "' in"));
    return "/lessons/" + snippet.lesson() + "#sandbox/" + snippet.id() + "?share=" + share.id();
  }

  /** The snippet whose editor the share opens in: its own, or the first demo's when it named none the lessons have. */
  private Optional<Snippet> openedIn(Share share) {
    return share.snippet().flatMap(snippets::find).or(() -> snippets.all().stream().findFirst());
  }
}
