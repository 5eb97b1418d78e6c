package lab.exactlyonce.classroom;

import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.StoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The classroom's SQL: classes, members, holds and rounds. Every method is one transaction. */
final class ClassStore implements lab.exactlyonce.learner.LearnerData {
  private static final String ROOM = "id, name, lesson, join_code, created_at, closed_at, live_session, current_round, leaderboard";
  private static final String MEMBER = "class_id, learner_id, nickname, joined_at, removed_at";
  private static final String ROUND = "id, class_id, session_id, question_id, pushed_at, revealed_at";

  private final Database db;

  ClassStore(Database db) {
    this.db = db;
  }

  /** @throws StoreException with {@link StoreException#isDuplicateKey()} when the code is taken */
  void insert(Room room) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO classes (" + ROOM + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
        s.setString(1, room.id());
        s.setString(2, room.name());
        s.setString(3, room.lesson());
        s.setString(4, room.code());
        setTime(s, 5, room.createdAt());
        setTime(s, 6, room.closedAt());
        s.setString(7, room.liveSession());
        s.setString(8, room.currentRound());
        s.setString(9, room.leaderboard());
        s.executeUpdate();
      }
      return null;
    });
  }

  Optional<Room> find(String id) {
    return db.inTransaction(c -> one(c, "SELECT " + ROOM + " FROM classes WHERE id = ?", id));
  }

  Optional<Room> byCode(String code) {
    return db.inTransaction(c -> one(c, "SELECT " + ROOM + " FROM classes WHERE join_code = ?", code));
  }

  List<Room> all() {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + ROOM + " FROM classes ORDER BY created_at DESC, id")) {
        return rooms(s);
      }
    });
  }

  /** @throws StoreException duplicate key when the new code is taken */
  void setCode(String id, String code) {
    update("UPDATE classes SET join_code = ? WHERE id = ?", code, id);
  }

  void close(String id, Instant at) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement(
          "UPDATE classes SET closed_at = ?, live_session = NULL, current_round = NULL WHERE id = ? AND closed_at IS NULL")) {
        s.setObject(1, time(at));
        s.setString(2, id);
        s.executeUpdate();
      }
      return null;
    });
  }

  void setLive(String id, String session, String round) {
    update("UPDATE classes SET live_session = ?, current_round = ? WHERE id = ?", session, round, id);
  }

  void setLeaderboard(String id, String mode) {
    update("UPDATE classes SET leaderboard = ? WHERE id = ?", mode, id);
  }

  private void update(String sql, String... values) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement(sql)) {
        for (int i = 0; i < values.length; i++) s.setString(i + 1, values[i]);
        s.executeUpdate();
      }
      return null;
    });
  }

  // --- members

  /** @throws StoreException duplicate key when the nickname (or the membership) is taken */
  void addMember(Member m) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement(
          "INSERT INTO class_members (class_id, learner_id, nickname, nickname_key, joined_at) VALUES (?, ?, ?, ?, ?)")) {
        s.setString(1, m.classId());
        s.setString(2, m.learnerId());
        s.setString(3, m.nickname());
        s.setString(4, Nicknames.key(m.nickname()));
        setTime(s, 5, m.joinedAt());
        s.executeUpdate();
      }
      return null;
    });
  }

  Optional<Member> member(String classId, String learnerId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + MEMBER + " FROM class_members WHERE class_id = ? AND learner_id = ?")) {
        s.setString(1, classId);
        s.setString(2, learnerId);
        List<Member> rows = members(s);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
      }
    });
  }

  /** Every member who was not removed, in joining order. */
  List<Member> members(String classId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + MEMBER
          + " FROM class_members WHERE class_id = ? AND removed_at IS NULL ORDER BY joined_at, nickname_key")) {
        s.setString(1, classId);
        return members(s);
      }
    });
  }

  /** Every member, removed ones too (their answers stay on the record). */
  List<Member> everyone(String classId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + MEMBER
          + " FROM class_members WHERE class_id = ? ORDER BY joined_at, nickname_key")) {
        s.setString(1, classId);
        return members(s);
      }
    });
  }

  /** The classes a learner is in (not removed), newest first. */
  List<Member> memberships(String learnerId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + MEMBER
          + " FROM class_members WHERE learner_id = ? AND removed_at IS NULL ORDER BY joined_at DESC")) {
        s.setString(1, learnerId);
        return members(s);
      }
    });
  }

  boolean remove(String classId, String learnerId, Instant at) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement(
          "UPDATE class_members SET removed_at = ? WHERE class_id = ? AND learner_id = ? AND removed_at IS NULL")) {
        s.setObject(1, time(at));
        s.setString(2, classId);
        s.setString(3, learnerId);
        return s.executeUpdate() > 0;
      }
    });
  }

  // --- holds

  Set<String> holds(String classId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT item FROM class_holds WHERE class_id = ? ORDER BY item")) {
        s.setString(1, classId);
        return strings(s);
      }
    });
  }

  void setHolds(String classId, Collection<String> items) {
    db.inTransaction(c -> {
      try (PreparedStatement d = c.prepareStatement("DELETE FROM class_holds WHERE class_id = ?")) {
        d.setString(1, classId);
        d.executeUpdate();
      }
      try (PreparedStatement s = c.prepareStatement("INSERT INTO class_holds (class_id, item) VALUES (?, ?)")) {
        for (String item : items) {
          s.setString(1, classId);
          s.setString(2, item);
          s.addBatch();
        }
        s.executeBatch();
      }
      return null;
    });
  }

  /** Ladder items held for this learner in this lesson by any open class they are in. */
  Set<String> heldFor(String learnerId, String lesson) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT h.item FROM class_holds h"
          + " JOIN class_members m ON m.class_id = h.class_id"
          + " JOIN classes k ON k.id = h.class_id"
          + " WHERE m.learner_id = ? AND m.removed_at IS NULL AND k.closed_at IS NULL AND k.lesson = ?")) {
        s.setString(1, learnerId);
        s.setString(2, lesson);
        return strings(s);
      }
    });
  }

  // --- rounds

  void addRound(Round r) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("INSERT INTO class_rounds (" + ROUND + ") VALUES (?, ?, ?, ?, ?, ?)")) {
        s.setString(1, r.id());
        s.setString(2, r.classId());
        s.setString(3, r.session());
        s.setString(4, r.questionId());
        setTime(s, 5, r.pushedAt());
        setTime(s, 6, r.revealedAt());
        s.executeUpdate();
      }
      try (PreparedStatement s = c.prepareStatement("UPDATE classes SET live_session = ?, current_round = ? WHERE id = ?")) {
        s.setString(1, r.session());
        s.setString(2, r.id());
        s.setString(3, r.classId());
        s.executeUpdate();
      }
      return null;
    });
  }

  Optional<Round> round(String id) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + ROUND + " FROM class_rounds WHERE id = ?")) {
        s.setString(1, id);
        List<Round> rows = rounds(s);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
      }
    });
  }

  List<Round> rounds(String classId) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT " + ROUND + " FROM class_rounds WHERE class_id = ? ORDER BY pushed_at, id")) {
        s.setString(1, classId);
        return rounds(s);
      }
    });
  }

  void reveal(String roundId, Instant at) {
    db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("UPDATE class_rounds SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL")) {
        s.setObject(1, time(at));
        s.setString(2, roundId);
        s.executeUpdate();
      }
      return null;
    });
  }

  // --- events (the progress feature's table, read only)

  /** A member's event in the class's lesson. */
  record MemberEvent(String learnerId, RecordedEvent event) {}

  /**
   * The events of the class's members (removed ones too: their answers stay on the record) in {@code lesson}, oldest
   * first; only those of {@code type} when it is not null.
   */
  List<MemberEvent> events(String classId, String lesson, String type) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT e.learner_id, e.event_id, e.type, e.lesson, e.item, e.data, e.result, e.recorded_at, e.seq"
              + " FROM events e JOIN class_members m ON m.learner_id = e.learner_id"
              + " WHERE m.class_id = ? AND e.lesson = ?" + (type == null ? "" : " AND e.type = ?") + " ORDER BY e.seq")) {
        s.setString(1, classId);
        s.setString(2, lesson);
        if (type != null) s.setString(3, type);
        var out = new ArrayList<MemberEvent>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            out.add(new MemberEvent(rs.getString(1), new RecordedEvent(rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getString(5), json(rs.getString(6)), json(rs.getString(7)), instant(rs, 8), rs.getLong(9))));
          }
        }
        return out;
      }
    });
  }

  /** The newest event seq of the class's members in the lesson and how many there are: changes when anything new happened. */
  String eventsVersion(String classId, String lesson) {
    return db.inTransaction(c -> {
      try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*), MAX(e.seq) FROM events e"
          + " JOIN class_members m ON m.learner_id = e.learner_id WHERE m.class_id = ? AND e.lesson = ?")) {
        s.setString(1, classId);
        s.setString(2, lesson);
        try (ResultSet rs = s.executeQuery()) {
          rs.next();
          return rs.getLong(1) + ":" + rs.getLong(2);
        }
      }
    });
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  private static com.fasterxml.jackson.databind.JsonNode json(String text) throws SQLException {
    try {
      return JSON.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new SQLException("stored event JSON is broken", e);
    }
  }

  // --- the learner's own data

  @Override
  public String name() {
    return "classes";
  }

  /** The classes the learner joined: class name, nickname, when, whether removed. */
  @Override
  public Object export(Connection c, String learnerId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT k.name, k.lesson, m.nickname, m.joined_at, m.removed_at"
        + " FROM class_members m JOIN classes k ON k.id = m.class_id WHERE m.learner_id = ? ORDER BY m.joined_at")) {
      s.setString(1, learnerId);
      var out = new ArrayList<java.util.Map<String, Object>>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          var row = new java.util.LinkedHashMap<String, Object>();
          row.put("class", rs.getString(1));
          row.put("lesson", rs.getString(2));
          row.put("nickname", rs.getString(3));
          row.put("joinedAt", instant(rs, 4).toString());
          Instant removed = instant(rs, 5);
          row.put("removedAt", removed == null ? null : removed.toString());
          out.add(row);
        }
      }
      return out;
    }
  }

  @Override
  public void forget(Connection c, String learnerId) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("DELETE FROM class_members WHERE learner_id = ?")) {
      s.setString(1, learnerId);
      s.executeUpdate();
    }
  }

  // --- rows

  private static Optional<Room> one(Connection c, String sql, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, key);
      List<Room> rows = rooms(s);
      return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }
  }

  private static List<Room> rooms(PreparedStatement s) throws SQLException {
    var out = new ArrayList<Room>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(new Room(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), instant(rs, 5),
            instant(rs, 6), rs.getString(7), rs.getString(8), rs.getString(9)));
      }
    }
    return out;
  }

  private static List<Member> members(PreparedStatement s) throws SQLException {
    var out = new ArrayList<Member>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(new Member(rs.getString(1), rs.getString(2), rs.getString(3), instant(rs, 4), instant(rs, 5)));
      }
    }
    return out;
  }

  private static List<Round> rounds(PreparedStatement s) throws SQLException {
    var out = new ArrayList<Round>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        out.add(new Round(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), instant(rs, 5), instant(rs, 6)));
      }
    }
    return out;
  }

  private static Set<String> strings(PreparedStatement s) throws SQLException {
    var out = new LinkedHashSet<String>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) out.add(rs.getString(1));
    }
    return out;
  }

  private static void setTime(PreparedStatement s, int index, Instant at) throws SQLException {
    if (at == null) s.setNull(index, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
    else s.setObject(index, time(at));
  }

  private static OffsetDateTime time(Instant at) {
    return at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
