package lab.exactlyonce.learner;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
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

  private final Database db;
  private final Learners learners;
  private final List<LearnerData> features;

  public MeRoutes(Database db, Learners learners, List<LearnerData> features) {
    this.db = db;
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
    Optional<String> id = learners.current(ctx);
    Optional<Row> row = id.flatMap(i -> db.inTransaction(c -> find(c, i)));
    var body = new LinkedHashMap<String, Object>();
    body.put("known", row.isPresent());
    body.put("displayName", row.map(Row::displayName).orElse(null));
    ctx.json(body);
  }

  private void rename(Context ctx) {
    String name = displayName(JsonRequests.read(ctx, 1024, List.of("displayName")));
    String id = learners.currentOrCreate(ctx);
    db.inTransaction(c -> Sql.update(c, "UPDATE learners SET display_name = ? WHERE id = ?", name, id));
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
    Optional<String> id = learners.current(ctx);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("format", "exactly-once-lab learner export, version 1");
    data.put("exportedAt", OffsetDateTime.now().toString());
    if (id.isPresent()) {
      db.inTransaction(c -> {
        Optional<Row> row = find(c, id.get());
        var learner = new LinkedHashMap<String, Object>();
        learner.put("id", id.get());
        learner.put("displayName", row.map(Row::displayName).orElse(null));
        learner.put("createdAt", row.map(r -> r.createdAt().toString()).orElse(null));
        data.put("learner", learner);
        for (LearnerData feature : features) data.put(feature.name(), feature.export(c, id.get()));
        return null;
      });
    } else {
      data.put("learner", null);
    }
    ctx.header("Content-Disposition", "attachment; filename=\"exactly-once-lab-my-data.json\"");
    ctx.header("Cache-Control", "no-store");
    ctx.json(data);
  }

  private void forget(Context ctx) {
    Optional<String> id = learners.current(ctx);
    int deleted = id.map(learner -> db.inTransaction(c -> {
      for (LearnerData feature : features) feature.forget(c, learner);
      return Sql.update(c, "DELETE FROM learners WHERE id = ?", learner);
    })).orElse(0);
    learners.clearCookie(ctx);
    ctx.json(Map.of("forgotten", deleted > 0));
  }

  private record Row(String displayName, OffsetDateTime createdAt) {}

  private static Optional<Row> find(Connection c, String id) throws SQLException {
    return Sql.optional(c, "SELECT display_name, created_at FROM learners WHERE id = ?",
        rs -> new Row(rs.getString(1), rs.getObject(2, OffsetDateTime.class)), id);
  }
}
