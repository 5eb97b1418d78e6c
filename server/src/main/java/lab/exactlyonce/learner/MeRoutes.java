package lab.exactlyonce.learner;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The learner's own data: {@code GET /api/me}, {@code PUT /api/me} (display name), {@code GET /api/me/export}
 * (everything, as a JSON download) and {@code DELETE /api/me} ("forget me": every row in one transaction, cookie
 * cleared).
 */
public final class MeRoutes {
  static final int MAX_NAME = 40;

  private final Learners learners;
  private final List<LearnerData> features;

  /** @param features every feature's data about a learner, for the export and "forget me" */
  public MeRoutes(Learners learners, List<LearnerData> features) {
    this.learners = learners;
    this.features = List.copyOf(features);
  }

  public void register(RoutesConfig routes) {
    routes.get("/api/me", this::show);
    routes.put("/api/me", this::rename);
    routes.get("/api/me/export", this::export);
    routes.delete("/api/me", this::forget);
  }

  private void show(Context ctx) {
    Optional<Learners.Row> row = learners.current(ctx).flatMap(learners::find);
    var body = new LinkedHashMap<String, Object>();
    body.put("known", row.isPresent());
    body.put("displayName", row.map(Learners.Row::displayName).orElse(null));
    ctx.json(body);
  }

  private void rename(Context ctx) {
    String name = displayName(JsonRequests.read(ctx, 1024, List.of("displayName")));
    learners.rename(learners.currentOrCreate(ctx), name);
    var result = new LinkedHashMap<String, Object>();
    result.put("displayName", name);
    ctx.json(result);
  }

  /** Trimmed; empty or null clears it; at most {@value #MAX_NAME} characters, no control characters. */
  static String displayName(JsonFields body) {
    body.required("displayName"); // null is there: it clears the name
    String name = body.optionalText("displayName").map(String::strip).orElse("");
    if (name.isEmpty()) return null;
    if (name.codePointCount(0, name.length()) > MAX_NAME) {
      throw new BadRequestResponse("'displayName' is " + name.codePointCount(0, name.length()) + " characters; the limit is " + MAX_NAME);
    }
    if (name.codePoints().anyMatch(Character::isISOControl)) {
      throw new BadRequestResponse("'displayName' must not contain control characters");
    }
    return name;
  }

  private void export(Context ctx) {
    Map<String, Object> data = learners.export(learners.current(ctx), features);
    ctx.header("Content-Disposition", "attachment; filename=\"exactly-once-lab-my-data.json\"");
    ctx.header("Cache-Control", "no-store");
    ctx.json(data);
  }

  private void forget(Context ctx) {
    boolean forgotten = learners.current(ctx).map(learner -> learners.forget(learner, features)).orElse(false);
    learners.clearCookie(ctx);
    ctx.json(Map.of("forgotten", forgotten));
  }
}
