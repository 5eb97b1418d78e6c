package lab.exactlyonce.progress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.Sql;
import lab.exactlyonce.store.StoreException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Records events exactly once and reads them back. The key is (learner, event id): the first {@link #record} of an
 * id inserts the row, in one transaction, with the result computed for it; any later call with the same id finds
 * the primary key taken (SQLState 23505) and returns the stored original, so a retry never counts twice and gets
 * the same answer. A later call whose body differs is a client bug and gets {@link Outcome.Conflict}. An event may
 * also record a {@link Fact} (an answer to one question of a session): its key is unique too, so a second event for
 * the same fact under another id gets {@link Outcome.Taken} however close together the two arrive.
 *
 * <p>This class knows nothing about HTTP or lessons: validate before calling it.
 */
public final class EventLog implements LearnerData {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Database db;
  private final Clock clock;

  public EventLog(Database db, Clock clock) {
    this.db = db;
    this.clock = clock;
  }

  /** What {@link #record} did. */
  public sealed interface Outcome {
    RecordedEvent event();

    /** First time this id was seen: stored now. */
    record Stored(RecordedEvent event) implements Outcome {}

    /** A retry of an id already stored with the same body: nothing stored, the original returned. */
    record Replayed(RecordedEvent event) implements Outcome {}

    /** The id is taken by an event with a different body: nothing stored; {@code event} is the original. */
    record Conflict(RecordedEvent event) implements Outcome {}

    /** Another event (another id) already recorded this fact: nothing stored; {@code event} is that one. */
    record Taken(RecordedEvent event, Fact fact) implements Outcome {}
  }

  /**
   * Stores {@code event} for {@code learnerId} unless that learner already recorded its id.
   *
   * @param result computes the result stored with a new event (for example a quiz grading); it is only called when
   *     the id has not been stored yet, and must not write to the database
   */
  public Outcome record(String learnerId, NewEvent event, Function<NewEvent, JsonNode> result) {
    return record(learnerId, event, null, result);
  }

  /**
   * Stores {@code event} unless that learner already recorded its id, or some event already recorded {@code fact}
   * (null when the event records none). Checked first to spare the {@code result}, and then by the unique keys, which
   * decide when two calls race.
   */
  public Outcome record(String learnerId, NewEvent event, Fact fact, Function<NewEvent, JsonNode> result) {
    Optional<Outcome> earlier = earlier(learnerId, event, fact);
    if (earlier.isPresent()) return earlier.get();
    JsonNode computed = result.apply(event);
    String resultText = write(computed == null ? JsonNodeFactory.instance.objectNode() : computed);
    String dataText = write(event.data());
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    try {
      long seq = db.inTransaction(c -> insert(c, learnerId, event, fact, dataText, resultText, now));
      return new Outcome.Stored(new RecordedEvent(event.id(), event.type(), event.lesson(), event.item(),
          read(dataText), read(resultText), now, seq));
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e;
      // A concurrent request won the insert (a resend of this id, or another event for the same fact): its row is
      // the answer.
      return earlier(learnerId, event, fact)
          .orElseThrow(() -> new IllegalStateException("event " + event.id() + " hit a duplicate key but is not stored", e));
    }
  }

  private Optional<Outcome> earlier(String learnerId, NewEvent event, Fact fact) {
    Optional<RecordedEvent> sameId = find(learnerId, event.id());
    if (sameId.isPresent()) return Optional.of(repeat(sameId.get(), event));
    if (fact == null) return Optional.empty();
    Optional<StoredFact> owner = db.inTransaction(c -> Sql.optional(c,
        "SELECT learner_id, " + COLUMNS + " FROM events WHERE fact = ?", rs -> new StoredFact(rs.getString(1), row(rs, 2)),
        fact.key()));
    if (owner.isEmpty()) return Optional.empty();
    if (owner.get().learnerId().equals(learnerId) && owner.get().event().id().equals(event.id())) {
      return Optional.of(repeat(owner.get().event(), event)); // stored by a resend of this id since the first look
    }
    return Optional.of(new Outcome.Taken(owner.get().event(), fact));
  }

  private record StoredFact(String learnerId, RecordedEvent event) {}

  /** Stores {@code event} with an empty result. */
  public Outcome record(String learnerId, NewEvent event) {
    return record(learnerId, event, e -> JsonNodeFactory.instance.objectNode());
  }

  private static Outcome repeat(RecordedEvent original, NewEvent event) {
    return original.sameBodyAs(event) ? new Outcome.Replayed(original) : new Outcome.Conflict(original);
  }

  private static long insert(Connection c, String learnerId, NewEvent event, Fact fact, String data, String result,
                             Instant at) throws SQLException {
    return Sql.insertReturningKey(c,
        "INSERT INTO events (learner_id, event_id, type, lesson, item, data, result, recorded_at, fact)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        "seq", learnerId, event.id(), event.type(), event.lesson(), event.item(), data, result, at,
        fact == null ? null : fact.key());
  }

  private static final String COLUMNS = "event_id, type, lesson, item, data, result, recorded_at, seq";

  /** The stored event with this id, if the learner recorded it. */
  public Optional<RecordedEvent> find(String learnerId, String eventId) {
    return db.inTransaction(c -> Sql.optional(c, "SELECT " + COLUMNS + " FROM events WHERE learner_id = ? AND event_id = ?",
        EventLog::row, learnerId, eventId));
  }

  /** The learner's events in one lesson, oldest first. */
  public List<RecordedEvent> inLesson(String learnerId, String lesson) {
    return db.inTransaction(c -> Sql.list(c, "SELECT " + COLUMNS + " FROM events WHERE learner_id = ? AND lesson = ? ORDER BY seq",
        EventLog::row, learnerId, lesson));
  }

  /** The learner's events of one type in every lesson, oldest first (the quiz reads its answers this way). */
  public List<RecordedEvent> ofType(String learnerId, String type) {
    return db.inTransaction(c -> Sql.list(c, "SELECT " + COLUMNS + " FROM events WHERE learner_id = ? AND type = ? ORDER BY seq",
        EventLog::row, learnerId, type));
  }

  /**
   * The events an earlier version stored twice for one fact, which the migration to unique facts set aside (the
   * table {@code events_set_aside}): no longer counted anywhere, still the learner's data to export and forget.
   */
  public LearnerData setAside() {
    return new LearnerData() {
      @Override
      public String name() {
        return "eventsSetAside";
      }

      @Override
      public Object export(Connection c, String learnerId) throws SQLException {
        return exportFrom(c, "events_set_aside", learnerId);
      }

      @Override
      public void forget(Connection c, String learnerId) throws SQLException {
        Sql.update(c, "DELETE FROM events_set_aside WHERE learner_id = ?", learnerId);
      }
    };
  }

  @Override
  public String name() {
    return "events";
  }

  @Override
  public Object export(Connection c, String learnerId) throws SQLException {
    return exportFrom(c, "events", learnerId);
  }

  /** The learner's rows of {@code table} (events or the ones set aside) as the export shows them. */
  private static List<Map<String, Object>> exportFrom(Connection c, String table, String learnerId) throws SQLException {
    return Sql.list(c, "SELECT " + COLUMNS + " FROM " + table + " WHERE learner_id = ? ORDER BY seq", EventLog::row,
        learnerId).stream().map(e -> {
          Map<String, Object> row = e.response();
          row.put("data", e.data());
          return row;
        }).toList();
  }

  @Override
  public void forget(Connection c, String learnerId) throws SQLException {
    Sql.update(c, "DELETE FROM events WHERE learner_id = ?", learnerId);
  }

  private static RecordedEvent row(ResultSet rs) throws SQLException {
    return row(rs, 1);
  }

  /**
   * The event in the current row, whose columns from {@code first} on are the events table's {@code event_id, type,
   * lesson, item, data, result, recorded_at, seq} in that order (the classroom reads its members' events this way).
   */
  public static RecordedEvent row(ResultSet rs, int first) throws SQLException {
    return new RecordedEvent(rs.getString(first), rs.getString(first + 1), rs.getString(first + 2), rs.getString(first + 3),
        read(rs.getString(first + 4)), read(rs.getString(first + 5)), Sql.instant(rs, first + 6), rs.getLong(first + 7));
  }

  private static String write(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  private static JsonNode read(String text) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored JSON is broken: " + text, e);
    }
  }
}
