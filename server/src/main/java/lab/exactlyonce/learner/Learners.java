package lab.exactlyonce.learner;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.SameSite;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;
import lab.exactlyonce.web.RequestOrigin;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Who is asking. Learners are anonymous: a signed, HttpOnly, SameSite=Lax cookie {@value #COOKIE} holds their id.
 * Reads use {@link #current}; writes use {@link #currentOrCreate}, which makes a learner (row and cookie) on the
 * first write. A cookie whose signature does not match is refused with 400 and cleared, and nothing is stored. A
 * cookie signed by another instance on the same host (browsers share cookies across ports) counts as no cookie.
 * The {@code learners} table is theirs alone: its row, display name, export and "forget me" are here, timed by the
 * app's {@link Clock}.
 */
public final class Learners {
  public static final String COOKIE = "eolab_learner";
  static final String TAMPERED = "the learner cookie '" + COOKIE + "' was not signed by this server (edited or damaged); "
      + "it has been cleared: send the request again to continue as a new learner";
  /** Browsers cap cookie lifetimes at 400 days. */
  private static final int MAX_AGE_SECONDS = 400 * 24 * 3600;

  private final Database db;
  private final CookieSigner signer;
  private final Clock clock;

  public Learners(Database db, Path dataDir, Clock clock) {
    this.db = db;
    this.signer = CookieSigner.load(db, dataDir, clock);
    this.clock = clock;
  }

  /**
   * The learner id in the request's cookie, if any; a tampered cookie throws 400 (and is cleared). A cookie signed
   * by the key before the current one is signed again on this response, so a learner who comes back between two
   * key rotations keeps their id through both.
   */
  public Optional<String> current(Context ctx) {
    String value = ctx.cookie(COOKIE);
    if (value == null || value.isEmpty()) return Optional.empty();
    CookieSigner.Checked checked = signer.verify(value);
    switch (checked.verdict()) {
      case VALID:
        if (checked.signedByOldKey()) setCookie(ctx, checked.learnerId());
        return Optional.of(checked.learnerId());
      case FOREIGN:
        return Optional.empty();
      default:
        clearCookie(ctx);
        throw new BadRequestResponse(TAMPERED);
    }
  }

  /**
   * The current learner for a write: the one in the cookie (its row created if this database has not seen it), or a
   * new learner whose cookie is set on this response. Call it after validating the request, so bad input stores
   * nothing.
   */
  public String currentOrCreate(Context ctx) {
    Optional<String> existing = current(ctx);
    String id = existing.orElseGet(() -> UUID.randomUUID().toString());
    ensureRow(id);
    if (existing.isEmpty()) setCookie(ctx, id);
    return id;
  }

  private void ensureRow(String id) {
    try {
      db.inTransaction(c -> {
        if (Sql.optional(c, "SELECT 1 FROM learners WHERE id = ?", rs -> true, id).isEmpty()) {
          Sql.update(c, "INSERT INTO learners (id, created_at) VALUES (?, ?)", id, OffsetDateTime.now(clock));
        }
        return null;
      });
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e; // a concurrent first write made the row: that is the row we wanted
    }
  }

  /** A learner's row: what they chose to be called (null for nobody in particular) and since when they exist. */
  record Row(String displayName, OffsetDateTime createdAt) {}

  /** The learner's row, if this database has one. */
  Optional<Row> find(String id) {
    return db.inTransaction(c -> find(c, id));
  }

  /** Sets (or, with null, clears) the learner's display name; the row must exist ({@link #currentOrCreate}). */
  void rename(String id, String displayName) {
    db.inTransaction(c -> Sql.update(c, "UPDATE learners SET display_name = ? WHERE id = ?", displayName, id));
  }

  /**
   * Everything stored about the learner, in one transaction: their row, then each feature's part under its name;
   * stamped with the time of the export. Someone without a learner id gets the same document with no data.
   */
  Map<String, Object> export(Optional<String> id, List<LearnerData> features) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("format", "exactly-once-lab learner export, version 1");
    data.put("exportedAt", OffsetDateTime.now(clock).toString());
    if (id.isEmpty()) {
      data.put("learner", null);
      return data;
    }
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
    return data;
  }

  /** "Forget me": every feature's rows, then the learner's, in one transaction; whether there was a learner row. */
  boolean forget(String id, List<LearnerData> features) {
    return db.inTransaction(c -> {
      for (LearnerData feature : features) feature.forget(c, id);
      return Sql.update(c, "DELETE FROM learners WHERE id = ?", id);
    }) > 0;
  }

  private static Optional<Row> find(Connection c, String id) throws SQLException {
    return Sql.optional(c, "SELECT display_name, created_at FROM learners WHERE id = ?",
        rs -> new Row(rs.getString(1), rs.getObject(2, OffsetDateTime.class)), id);
  }

  void setCookie(Context ctx, String id) {
    ctx.cookie(new Cookie(COOKIE, signer.sign(id), "/", MAX_AGE_SECONDS, RequestOrigin.isHttps(ctx), true, null, SameSite.LAX));
  }

  void clearCookie(Context ctx) {
    ctx.cookie(new Cookie(COOKIE, "", "/", 0, RequestOrigin.isHttps(ctx), true, null, SameSite.LAX));
  }
}
