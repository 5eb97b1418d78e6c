package lab.exactlyonce.share;

import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The share links' SQL: the {@code shares} table. A row holds the code and the snippet it opens in, never a learner:
 * a share is not personal data, so export and forget-me have nothing to do here.
 */
final class ShareStore {
  private final Database db;
  private final Clock clock;

  ShareStore(Database db, Clock clock) {
    this.db = db;
    this.clock = clock;
  }

  Optional<Share> find(String id) {
    return db.inTransaction(c -> find(c, id));
  }

  /**
   * The stored share of this content: the row at the first of {@code ids} that holds it, or a new row at the first
   * that is free. Two clients sharing the same code at once race for the same key; the one refused reads the winner's.
   */
  Share keep(List<String> ids, Optional<String> snippet, String source) {
    try {
      return db.inTransaction(c -> keep(c, ids, snippet, source));
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e;
      return db.inTransaction(c -> keep(c, ids, snippet, source));
    }
  }

  private Share keep(Connection c, List<String> ids, Optional<String> snippet, String source) throws SQLException {
    Share wanted = null;
    for (String id : ids) {
      wanted = new Share(id, snippet, source);
      Optional<Share> there = find(c, id);
      if (there.isEmpty()) {
        Sql.update(c, "INSERT INTO shares (id, snippet, source, created_at) VALUES (?, ?, ?, ?)", id, snippet.orElse(null),
            source, clock.instant());
        return wanted;
      }
      if (there.get().equals(wanted)) return wanted;
    }
    throw new IllegalStateException("every id of a share is taken by other content: " + wanted.id());
  }

  private static Optional<Share> find(Connection c, String id) throws SQLException {
    return Sql.optional(c, "SELECT id, snippet, source FROM shares WHERE id = ?", ShareStore::row, id);
  }

  private static Share row(ResultSet row) throws SQLException {
    return new Share(row.getString(1), Optional.ofNullable(row.getString(2)), row.getString(3));
  }
}
