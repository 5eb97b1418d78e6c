package lab.exactlyonce.classroom;

import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who is online in a class, over every node on the database: a student is online while a stream of theirs is open on
 * any node. Each node keeps a row per class and student it streams to and refreshes its rows every
 * {@link #HEARTBEAT}; rows not refreshed for {@link #EXPIRY} (a node that died) no longer count. Which classes'
 * presence changed here is gathered for the other nodes' dashboards ({@link #drainChanged}).
 */
final class PresenceStore implements AutoCloseable {
  static final Duration HEARTBEAT = Duration.ofSeconds(10);
  static final Duration EXPIRY = HEARTBEAT.multipliedBy(3);

  private final Database db;
  private final Clock clock;
  private final String node = UUID.randomUUID().toString();
  private final Set<String> changed = ConcurrentHashMap.newKeySet();

  PresenceStore(Database db, Clock clock) {
    this.db = db;
    this.clock = clock;
  }

  /** This node's id, as the live changes it sends name it. */
  String node() {
    return node;
  }

  /** A stream of the student's opened here. */
  void opened(String classId, String learnerId) {
    OffsetDateTime now = OffsetDateTime.now(clock);
    try {
      db.inTransaction(c -> {
        if (Sql.update(c, "UPDATE class_presence SET seen_at = ? WHERE class_id = ? AND learner_id = ? AND node_id = ?",
            now, classId, learnerId, node) == 0) {
          Sql.update(c, "INSERT INTO class_presence (class_id, learner_id, node_id, seen_at) VALUES (?, ?, ?, ?)",
              classId, learnerId, node, now);
        }
        return null;
      });
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e; // a second stream of theirs opened here at the same moment: one row is enough
    }
    changed.add(classId);
  }

  /** The student's last stream in the class here closed. */
  void closed(String classId, String learnerId) {
    db.inTransaction(c -> Sql.update(c, "DELETE FROM class_presence WHERE class_id = ? AND learner_id = ? AND node_id = ?",
        classId, learnerId, node));
    changed.add(classId);
  }

  /** Learner ids with a stream open in the class on some node that is alive. */
  Set<String> online(String classId) {
    OffsetDateTime fresh = OffsetDateTime.now(clock).minus(EXPIRY);
    return new HashSet<>(db.inTransaction(c -> Sql.list(c,
        "SELECT DISTINCT learner_id FROM class_presence WHERE class_id = ? AND seen_at > ?",
        rs -> rs.getString(1), classId, fresh)));
  }

  /** Refreshes this node's rows and drops the rows of nodes long gone. */
  void heartbeat() {
    OffsetDateTime now = OffsetDateTime.now(clock);
    db.inTransaction(c -> {
      Sql.update(c, "UPDATE class_presence SET seen_at = ? WHERE node_id = ?", now, node);
      return Sql.update(c, "DELETE FROM class_presence WHERE seen_at < ?", now.minus(EXPIRY.multipliedBy(2)));
    });
  }

  /** The classes whose presence changed here since the last call. */
  Set<String> drainChanged() {
    return DashboardPush.drain(changed);
  }

  /** This node stops: its students are offline here at once, not after the expiry. */
  @Override
  public void close() {
    try {
      db.inTransaction(c -> Sql.update(c, "DELETE FROM class_presence WHERE node_id = ?", node));
    } catch (StoreException e) {
      // the database is gone already: the rows expire
    }
  }
}
