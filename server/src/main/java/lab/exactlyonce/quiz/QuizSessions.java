package lab.exactlyonce.quiz;

import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
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
    db.inTransaction(c -> Sql.update(c, "INSERT INTO quiz_sessions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        s.id(), s.learner(), s.lesson(), s.mode().id, s.seed(), s.secondsPerQuestion(), String.join("\n", s.questions()),
        s.createdAt()));
  }

  /** The session, if it exists and belongs to {@code learner}. */
  Optional<QuizSession> find(String id, String learner) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + COLUMNS + " FROM quiz_sessions WHERE id = ? AND learner_id = ?",
        QuizSessions::row, id, learner));
  }

  private static QuizSession row(ResultSet rs) throws SQLException {
    return new QuizSession(rs.getString(1), rs.getString(2), rs.getString(3), QuizSession.Mode.parse(rs.getString(4)),
        rs.getLong(5), List.of(rs.getString(7).split("\n")), rs.getInt(6), Sql.instant(rs, 8));
  }

  @Override
  public String name() {
    return "quizSessions";
  }

  @Override
  public Object export(Connection c, String learnerId) throws SQLException {
    List<Map<String, Object>> out = new ArrayList<>();
    for (QuizSession s : Sql.list(c, "SELECT " + COLUMNS + " FROM quiz_sessions WHERE learner_id = ? ORDER BY created_at",
        QuizSessions::row, learnerId)) {
      Map<String, Object> row = s.fields();
      row.put("questions", s.questions());
      row.put("createdAt", s.createdAt().toString());
      out.add(row);
    }
    return out;
  }

  @Override
  public void forget(Connection c, String learnerId) throws SQLException {
    Sql.update(c, "DELETE FROM quiz_sessions WHERE learner_id = ?", learnerId);
  }
}
