package lab.exactlyonce.classroom;

import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The classroom's SQL: classes, members, holds and rounds. Every method is one transaction. */
final class ClassStore implements LearnerData {
  private static final String ROOM = "id, name, lesson, join_code, created_at, closed_at, live_session, current_round, leaderboard";
  private static final String MEMBER = "class_id, learner_id, nickname, joined_at, removed_at";
  private static final String ROUND = "id, class_id, session_id, question_id, pushed_at, revealed_at, deadline";

  private final Database db;

  ClassStore(Database db) {
    this.db = db;
  }

  /** @throws StoreException with {@link StoreException#isDuplicateKey()} when the code is taken */
  void insert(Room room) {
    update("INSERT INTO classes (" + ROOM + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", room.id(), room.name(), room.lesson(),
        room.code(), room.createdAt(), room.closedAt(), room.liveSession(), room.currentRound(), room.leaderboard().id());
  }

  Optional<Room> find(String id) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + ROOM + " FROM classes WHERE id = ?", ClassStore::roomRow, id));
  }

  Optional<Room> byCode(String code) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + ROOM + " FROM classes WHERE join_code = ?", ClassStore::roomRow, code));
  }

  List<Room> all() {
    return db.inTransaction(c -> Sql.list(c, "SELECT " + ROOM + " FROM classes ORDER BY created_at DESC, id", ClassStore::roomRow));
  }

  /** @throws StoreException duplicate key when the new code is taken */
  void setCode(String id, String code) {
    update("UPDATE classes SET join_code = ? WHERE id = ?", code, id);
  }

  void close(String id, Instant at) {
    update("UPDATE classes SET closed_at = ?, live_session = NULL, current_round = NULL WHERE id = ? AND closed_at IS NULL", at, id);
  }

  void setLive(String id, String session, String round) {
    update("UPDATE classes SET live_session = ?, current_round = ? WHERE id = ?", session, round, id);
  }

  void setLeaderboard(String id, Leaderboard mode) {
    update("UPDATE classes SET leaderboard = ? WHERE id = ?", mode.id(), id);
  }

  /** One statement in its own transaction; how many rows it changed. */
  private int update(String sql, Object... params) {
    return db.inTransaction(c -> Sql.update(c, sql, params));
  }

  // --- members

  /** @throws StoreException duplicate key when the nickname (or the membership) is taken */
  void addMember(Member m) {
    update("INSERT INTO class_members (class_id, learner_id, nickname, nickname_key, joined_at) VALUES (?, ?, ?, ?, ?)",
        m.classId(), m.learnerId(), m.nickname(), Nicknames.key(m.nickname()), m.joinedAt());
  }

  Optional<Member> member(String classId, String learnerId) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + MEMBER + " FROM class_members WHERE class_id = ? AND learner_id = ?",
        ClassStore::memberRow, classId, learnerId));
  }

  /** Every member who was not removed, in joining order. */
  List<Member> members(String classId) {
    return membersWhere("WHERE class_id = ? AND removed_at IS NULL ORDER BY joined_at, nickname_key", classId);
  }

  /** Every member, removed ones too (their answers stay on the record). */
  List<Member> everyone(String classId) {
    return membersWhere("WHERE class_id = ? ORDER BY joined_at, nickname_key", classId);
  }

  /** The classes a learner is in (not removed), newest first. */
  List<Member> memberships(String learnerId) {
    return membersWhere("WHERE learner_id = ? AND removed_at IS NULL ORDER BY joined_at DESC", learnerId);
  }

  private List<Member> membersWhere(String where, String key) {
    return db.inTransaction(c -> Sql.list(c, "SELECT " + MEMBER + " FROM class_members " + where, ClassStore::memberRow, key));
  }

  boolean remove(String classId, String learnerId, Instant at) {
    return update("UPDATE class_members SET removed_at = ? WHERE class_id = ? AND learner_id = ? AND removed_at IS NULL",
        at, classId, learnerId) > 0;
  }

  // --- holds

  Set<String> holds(String classId) {
    return strings("SELECT item FROM class_holds WHERE class_id = ? ORDER BY item", classId);
  }

  void setHolds(String classId, Collection<String> items) {
    db.inTransaction(c -> {
      Sql.update(c, "DELETE FROM class_holds WHERE class_id = ?", classId);
      for (String item : items) Sql.update(c, "INSERT INTO class_holds (class_id, item) VALUES (?, ?)", classId, item);
      return null;
    });
  }

  private Set<String> strings(String sql, Object... params) {
    return new LinkedHashSet<>(db.inTransaction(c -> Sql.list(c, sql, rs -> rs.getString(1), params)));
  }

  // --- rounds

  void addRound(Round r) {
    db.inTransaction(c -> {
      Sql.update(c, "INSERT INTO class_rounds (" + ROUND + ") VALUES (?, ?, ?, ?, ?, ?, ?)",
          r.id(), r.classId(), r.session(), r.questionId(), r.pushedAt(), r.revealedAt(), r.deadline());
      return Sql.update(c, "UPDATE classes SET live_session = ?, current_round = ? WHERE id = ?", r.session(), r.id(), r.classId());
    });
  }

  Optional<Round> round(String id) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + ROUND + " FROM class_rounds WHERE id = ?", ClassStore::roundRow, id));
  }

  List<Round> rounds(String classId) {
    return db.inTransaction(c -> Sql.list(c, "SELECT " + ROUND + " FROM class_rounds WHERE class_id = ? ORDER BY pushed_at, id",
        ClassStore::roundRow, classId));
  }

  void reveal(String roundId, Instant at) {
    update("UPDATE class_rounds SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL", at, roundId);
  }

  // --- instructor sign-outs

  /** Whether the instructor session with {@code nonce} was signed out (and would not have expired by {@code now}). */
  boolean signedOut(String nonce, Instant now) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT 1 FROM instructor_signouts WHERE nonce = ? AND expires_at > ?",
        rs -> true, nonce, now)).isPresent();
  }

  /** Records a sign-out until the session would have expired; drops the sign-outs that are past theirs. */
  void signOut(String nonce, Instant expires, Instant now) {
    db.inTransaction(c -> {
      Sql.update(c, "DELETE FROM instructor_signouts WHERE expires_at <= ?", now);
      Sql.update(c, "DELETE FROM instructor_signouts WHERE nonce = ?", nonce);
      return Sql.update(c, "INSERT INTO instructor_signouts (nonce, expires_at) VALUES (?, ?)", nonce, expires);
    });
  }

  // --- events (the progress feature's table, read only)

  /** A member's event. */
  record MemberEvent(String learnerId, RecordedEvent event) {}

  /**
   * The events of the class's members (removed ones too: their answers stay on the record) in every lesson, oldest
   * first (a class may be asked questions of any lesson); only those of {@code type} when it is not null.
   */
  List<MemberEvent> events(String classId, String type) {
    String sql = "SELECT e.learner_id, e.event_id, e.type, e.lesson, e.item, e.data, e.result, e.recorded_at, e.seq"
        + " FROM events e JOIN class_members m ON m.learner_id = e.learner_id"
        + " WHERE m.class_id = ?" + (type == null ? "" : " AND e.type = ?") + " ORDER BY e.seq";
    Object[] params = type == null ? new Object[] {classId} : new Object[] {classId, type};
    return db.inTransaction(c -> Sql.list(c, sql, rs -> new MemberEvent(rs.getString(1), EventLog.row(rs, 2)), params));
  }

  /** The option of the live answer that recorded {@code fact} (its unique key), if one did. */
  Optional<Integer> liveChoice(String fact) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT event_id, type, lesson, item, data, result, recorded_at, seq"
        + " FROM events WHERE fact = ?", rs -> EventLog.row(rs, 1), fact)).map(e -> e.data().path("choice").asInt());
  }

  /** The newest event seq of the class's members and how many there are: changes when anything new happened. */
  String eventsVersion(String classId) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT COUNT(*), MAX(e.seq) FROM events e"
        + " JOIN class_members m ON m.learner_id = e.learner_id WHERE m.class_id = ?",
        rs -> rs.getLong(1) + ":" + rs.getLong(2), classId).orElseThrow());
  }

  // --- the learner's own data

  @Override
  public String name() {
    return "classes";
  }

  /** The classes the learner joined: class name, nickname, when, whether removed. */
  @Override
  public Object export(Connection c, String learnerId) throws SQLException {
    return Sql.list(c, "SELECT k.name, k.lesson, m.nickname, m.joined_at, m.removed_at"
        + " FROM class_members m JOIN classes k ON k.id = m.class_id WHERE m.learner_id = ? ORDER BY m.joined_at", rs -> {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("class", rs.getString(1));
          row.put("lesson", rs.getString(2));
          row.put("nickname", rs.getString(3));
          row.put("joinedAt", Sql.instant(rs, 4).toString());
          Instant removed = Sql.instant(rs, 5);
          row.put("removedAt", removed == null ? null : removed.toString());
          return row;
        }, learnerId);
  }

  @Override
  public void forget(Connection c, String learnerId) throws SQLException {
    Sql.update(c, "DELETE FROM class_members WHERE learner_id = ?", learnerId);
  }

  // --- rows

  private static Room roomRow(ResultSet rs) throws SQLException {
    return new Room(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), Sql.instant(rs, 5),
        Sql.instant(rs, 6), rs.getString(7), rs.getString(8), Leaderboard.fromId(rs.getString(9)));
  }

  private static Member memberRow(ResultSet rs) throws SQLException {
    return new Member(rs.getString(1), rs.getString(2), rs.getString(3), Sql.instant(rs, 4), Sql.instant(rs, 5));
  }

  private static Round roundRow(ResultSet rs) throws SQLException {
    return new Round(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), Sql.instant(rs, 5), Sql.instant(rs, 6),
        Sql.instant(rs, 7));
  }
}
