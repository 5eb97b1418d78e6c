package lab.exactlyonce.quiz;

import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Quiz sessions in the {@code quiz_sessions} table; part of a learner's export, deleted by "forget me". */
final class QuizSessions implements LearnerData {
  private static final String COLUMNS = "id, learner_id, lesson, mode, seed, seconds_per_question, questions, created_at";
  private final Database db;

  QuizSessions(Database db) {
    this.db = db;
  }

  void add(QuizSession s) {
    db.inTransaction(c -> {
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO quiz_sessions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
        insert.setString(1, s.id());
        insert.setString(2, s.learner());
        insert.setString(3, s.lesson());
        insert.setString(4, s.mode().id);
        insert.setLong(5, s.seed());
        insert.setInt(6, s.secondsPerQuestion());
        insert.setString(7, String.join("\n", s.questions()));
        insert.setObject(8, OffsetDateTime.ofInstant(s.createdAt(), ZoneOffset.UTC));
        insert.executeUpdate();
      }
      return null;
    });
  }

  /** The session, if it exists and belongs to {@code learner}. */
  Optional<QuizSession> find(String id, String learner) {
    return db.inTransaction(c -> {
      try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM quiz_sessions WHERE id = ? AND learner_id = ?")) {
        select.setString(1, id);
        select.setString(2, learner);
        List<QuizSession> rows = rows(select);
        return rows.isEmpty() ? Optional.<QuizSession>empty() : Optional.of(rows.get(0));
      }
    });
  }

  private static List<QuizSession> rows(PreparedStatement select) throws SQLException {
    List<QuizSession> out = new ArrayList<>();
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        out.add(new QuizSession(rs.getString(1), rs.getString(2), rs.getString(3), QuizSession.Mode.parse(rs.getString(4)),
            rs.getLong(5), List.of(rs.getString(7).split("\n")), rs.getInt(6),
            rs.getObject(8, OffsetDateTime.class).toInstant()));
      }
    }
    return out;
  }

  @Override
  public String name() {
    return "quizSessions";
  }

  @Override
  public Object export(Connection c, String learnerId) throws SQLException {
    try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM quiz_sessions WHERE learner_id = ? ORDER BY created_at")) {
      select.setString(1, learnerId);
      List<Map<String, Object>> out = new ArrayList<>();
      for (QuizSession s : rows(select)) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", s.id());
        row.put("lesson", s.lesson());
        row.put("mode", s.mode().id);
        row.put("seed", s.seed());
        row.put("secondsPerQuestion", s.secondsPerQuestion());
        row.put("questions", s.questions());
        row.put("createdAt", s.createdAt().toString());
        out.add(row);
      }
      return out;
    }
  }

  @Override
  public void forget(Connection c, String learnerId) throws SQLException {
    try (PreparedStatement delete = c.prepareStatement("DELETE FROM quiz_sessions WHERE learner_id = ?")) {
      delete.setString(1, learnerId);
      delete.executeUpdate();
    }
  }
}
