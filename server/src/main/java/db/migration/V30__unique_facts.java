package db.migration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Gives every event that records a once-only fact a unique {@code fact} key, so that two answers to one question
 * cannot both be stored whatever the race: a quiz answer is once per (learner, session, question), a live answer once
 * per (round, learner). Earlier versions checked this before inserting, which a concurrent request could slip past,
 * so an existing database may hold such doubles: the first answer (lowest seq) keeps its place and gets the key; each
 * later one is moved, unchanged, to {@code events_set_aside} (nothing is deleted; "forget me" still removes them with
 * the learner). A Java migration because the fact is inside the JSON {@code data} column, which H2 and PostgreSQL
 * read with different functions; the statements themselves are plain SQL both accept.
 *
 * <p>The key format is part of the schema from here on; {@code lab.exactlyonce.progress.Fact} builds the same keys.
 */
public class V30__unique_facts extends BaseJavaMigration {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String COLUMNS = "learner_id, event_id, seq, type, lesson, item, data, result, recorded_at";

  @Override
  public void migrate(Context context) throws SQLException {
    Connection c = context.getConnection();
    try (Statement s = c.createStatement()) {
      s.execute("ALTER TABLE events ADD COLUMN fact VARCHAR(500)");
      s.execute("CREATE TABLE events_set_aside ("
          + " learner_id VARCHAR(36) NOT NULL, event_id VARCHAR(36) NOT NULL, seq BIGINT NOT NULL,"
          + " type VARCHAR(40) NOT NULL, lesson VARCHAR(100) NOT NULL, item VARCHAR(100) NOT NULL,"
          + " data VARCHAR(8000) NOT NULL, result VARCHAR(16000) NOT NULL, recorded_at TIMESTAMP WITH TIME ZONE NOT NULL,"
          + " fact VARCHAR(500) NOT NULL,"
          + " CONSTRAINT events_set_aside_pk PRIMARY KEY (learner_id, event_id),"
          + " CONSTRAINT events_set_aside_learner_fk FOREIGN KEY (learner_id) REFERENCES learners (id) ON DELETE CASCADE)");
    }
    record Row(String learner, String event, String fact) {}
    List<Row> keep = new ArrayList<>();
    List<Row> setAside = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT learner_id, event_id, data FROM events WHERE type = 'quiz.answer' ORDER BY seq");
         ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String fact = fact(rs.getString(1), rs.getString(3));
        if (fact == null) continue;
        Row row = new Row(rs.getString(1), rs.getString(2), fact);
        (seen.add(fact) ? keep : setAside).add(row);
      }
    }
    try (PreparedStatement copy = c.prepareStatement("INSERT INTO events_set_aside (" + COLUMNS + ", fact) SELECT "
        + COLUMNS + ", CAST(? AS VARCHAR(500)) FROM events WHERE learner_id = ? AND event_id = ?");
         PreparedStatement delete = c.prepareStatement("DELETE FROM events WHERE learner_id = ? AND event_id = ?")) {
      for (Row row : setAside) {
        copy.setString(1, row.fact());
        copy.setString(2, row.learner());
        copy.setString(3, row.event());
        copy.executeUpdate();
        delete.setString(1, row.learner());
        delete.setString(2, row.event());
        delete.executeUpdate();
      }
    }
    try (PreparedStatement update = c.prepareStatement("UPDATE events SET fact = ? WHERE learner_id = ? AND event_id = ?")) {
      for (Row row : keep) {
        update.setString(1, row.fact());
        update.setString(2, row.learner());
        update.setString(3, row.event());
        update.executeUpdate();
      }
    }
    try (Statement s = c.createStatement()) {
      // NULL (an event that records no once-only fact) never collides, in H2 and PostgreSQL alike.
      s.execute("ALTER TABLE events ADD CONSTRAINT events_fact_unique UNIQUE (fact)");
    }
  }

  /** The key of a stored quiz answer, or null when its data is not one (nothing to keep once). */
  static String fact(String learner, String data) {
    JsonNode d;
    try {
      d = JSON.readTree(data);
    } catch (Exception unreadable) {
      return null;
    }
    String round = d.path("round").asText("");
    if (!round.isEmpty()) return "live.answer/" + round + "/" + learner;
    String session = d.path("session").asText("");
    String question = d.path("question").asText("");
    if (session.isEmpty() || question.isEmpty()) return null;
    String key = "quiz.answer/" + learner + "/" + session + "/" + question;
    return key.length() <= 500 ? key : null;
  }
}
