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
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

/**
 * Who is asking. Learners are anonymous: a signed, HttpOnly, SameSite=Lax cookie {@value #COOKIE} holds their id.
 * Reads use {@link #current}; writes use {@link #currentOrCreate}, which makes a learner (row and cookie) on the
 * first write. A cookie whose signature does not match is refused with 400 and cleared, and nothing is stored. A
 * cookie signed by another instance on the same host (browsers share cookies across ports) counts as no cookie.
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
    this.signer = CookieSigner.fromDataDir(dataDir);
    this.clock = clock;
  }

  /** The learner id in the request's cookie, if any; a tampered cookie throws 400 (and is cleared). */
  public Optional<String> current(Context ctx) {
    String value = ctx.cookie(COOKIE);
    if (value == null || value.isEmpty()) return Optional.empty();
    CookieSigner.Checked checked = signer.verify(value);
    switch (checked.verdict()) {
      case VALID:
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

  void setCookie(Context ctx, String id) {
    ctx.cookie(new Cookie(COOKIE, signer.sign(id), "/", MAX_AGE_SECONDS, RequestOrigin.isHttps(ctx), true, null, SameSite.LAX));
  }

  void clearCookie(Context ctx) {
    ctx.cookie(new Cookie(COOKIE, "", "/", 0, RequestOrigin.isHttps(ctx), true, null, SameSite.LAX));
  }
}
