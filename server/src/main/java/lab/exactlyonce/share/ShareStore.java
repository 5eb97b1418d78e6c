package lab.exactlyonce.share;

import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The share links' SQL: the {@code shares} table. A row holds the code and the snippet it opens in, never a learner:
 * a share is not personal data, so export and forget-me have nothing to do here. A link nobody opened for
 * {@code unopenedFor} is gone (removed when a link is made, and never found before that), and all links together hold
 * at most {@code storageBytes} of code.
 */
final class ShareStore {
  /** A link's last opening is written at most this often, so that opening a popular link is a read. */
  private static final Duration OPENED_GRAIN = Duration.ofHours(1);

  private final Database db;
  private final Clock clock;
  private final long storageBytes;
  private final Duration unopenedFor;

  ShareStore(Database db, Clock clock, ShareSettings settings) {
    this.db = db;
    this.clock = clock;
    this.storageBytes = settings.storageBytes();
    this.unopenedFor = settings.unopenedFor();
  }

  /** The storage budget is spent: no new link until the links opened least recently expire. */
  static final class Full extends RuntimeException {
    final long budgetBytes;
    final Duration untilRoom;

    Full(long budgetBytes, Duration untilRoom) {
      super("share storage full", null, false, false);
      this.budgetBytes = budgetBytes;
      this.untilRoom = untilRoom;
    }
  }

  /** The share at {@code id}, unless nobody opened it for the expiry time; opening it keeps it. */
  Optional<Share> open(String id) {
    return db.inTransaction(c -> {
      Instant now = clock.instant();
      Optional<Opened> found = Sql.optional(c, "SELECT id, snippet, source, last_opened_at FROM shares WHERE id = ?",
          ShareStore::opened, id);
      if (found.isEmpty() || found.get().lastOpened().isBefore(now.minus(unopenedFor))) return Optional.empty();
      if (found.get().lastOpened().isBefore(now.minus(OPENED_GRAIN))) {
        Sql.update(c, "UPDATE shares SET last_opened_at = ? WHERE id = ?", at(now), id);
      }
      return Optional.of(found.get().share());
    });
  }

  /**
   * Stores the code under a new random id, after removing the links that expired.
   *
   * @throws Full when the code does not fit in what the storage budget has left
   */
  Share keep(Optional<String> snippet, String source) {
    int size = source.getBytes(StandardCharsets.UTF_8).length;
    for (int attempt = 0; ; attempt++) {
      Share share = new Share(ShareIds.random(), snippet, source);
      try {
        return db.inTransaction(c -> insert(c, share, size));
      } catch (StoreException e) {
        // 72 random bits met an id in use: astronomically rare, so a second one is new
        if (!e.isDuplicateKey() || attempt == 2) throw e;
      }
    }
  }

  private Share insert(Connection c, Share share, int size) throws SQLException {
    Instant now = clock.instant();
    Sql.update(c, "DELETE FROM shares WHERE last_opened_at < ?", at(now.minus(unopenedFor)));
    long used = Sql.optional(c, "SELECT COALESCE(SUM(size_bytes), 0) FROM shares", rs -> rs.getLong(1)).orElse(0L);
    if (used + size > storageBytes) {
      Instant oldest = Sql.optional(c, "SELECT MIN(last_opened_at) FROM shares", rs -> {
        OffsetDateTime min = rs.getObject(1, OffsetDateTime.class);
        return min == null ? now : min.toInstant();
      }).orElse(now);
      // the second after the oldest link's expiry, rounded up: by then it is gone
      throw new Full(storageBytes, Duration.between(now, oldest.plus(unopenedFor)).plusSeconds(2).withNanos(0));
    }
    Sql.update(c, "INSERT INTO shares (id, snippet, source, created_at, last_opened_at, size_bytes) VALUES (?, ?, ?, ?, ?, ?)",
        share.id(), share.snippet().orElse(null), share.source(), at(now), at(now), size);
    return share;
  }

  private record Opened(Share share, Instant lastOpened) {}

  private static Opened opened(ResultSet row) throws SQLException {
    return new Opened(new Share(row.getString(1), Optional.ofNullable(row.getString(2)), row.getString(3)),
        row.getObject(4, OffsetDateTime.class).toInstant());
  }

  private static OffsetDateTime at(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
