package lab.exactlyonce.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One statement on the caller's connection: prepare, bind {@code params} in order, execute, map rows. Parameters bind
 * by their Java type: String, Integer, Long, Boolean, OffsetDateTime as given, Instant as an OffsetDateTime in UTC;
 * null as an untyped NULL, which the database types from its column (PostgreSQL cannot type a bare {@code ? IS NULL}:
 * write {@code CAST(? AS ...)} there). Calls run inside {@link Database#inTransaction} or a feature's export and let
 * {@link SQLException} through, so that one place rolls back and turns it into a {@link StoreException} whose
 * {@link StoreException#isDuplicateKey()} still sees SQLState 23505.
 */
public final class Sql {
  private Sql() {}

  /** Turns the current row into a value; reads columns by position, in the order the SELECT names them. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet row) throws SQLException;
  }

  /** Every row the query returns, in its order. */
  public static <T> List<T> list(Connection c, String sql, RowMapper<T> mapper, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(c, sql, params, null); ResultSet rs = s.executeQuery()) {
      var rows = new ArrayList<T>();
      while (rs.next()) rows.add(mapper.map(rs));
      return rows;
    }
  }

  /** The first row the query returns, if any. */
  public static <T> Optional<T> optional(Connection c, String sql, RowMapper<T> mapper, Object... params)
      throws SQLException {
    try (PreparedStatement s = prepare(c, sql, params, null); ResultSet rs = s.executeQuery()) {
      return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
    }
  }

  /** Runs an INSERT, UPDATE or DELETE; returns how many rows it changed. */
  public static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(c, sql, params, null)) {
      return s.executeUpdate();
    }
  }

  /** Runs an INSERT and returns the value the database generated for {@code keyColumn} (an identity column). */
  public static long insertReturningKey(Connection c, String sql, String keyColumn, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(c, sql, params, keyColumn)) {
      s.executeUpdate();
      try (ResultSet keys = s.getGeneratedKeys()) {
        if (!keys.next()) throw new SQLException("the database returned no " + keyColumn + " for: " + sql);
        return keys.getLong(1);
      }
    }
  }

  /** An Instant column (TIMESTAMP WITH TIME ZONE), null when the column is. */
  public static Instant instant(ResultSet row, int column) throws SQLException {
    OffsetDateTime t = row.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  private static PreparedStatement prepare(Connection c, String sql, Object[] params, String keyColumn)
      throws SQLException {
    PreparedStatement s = keyColumn == null ? c.prepareStatement(sql) : c.prepareStatement(sql, new String[] {keyColumn});
    try {
      for (int i = 0; i < params.length; i++) bind(s, i + 1, params[i], sql);
      return s;
    } catch (SQLException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private static void bind(PreparedStatement s, int index, Object value, String sql) throws SQLException {
    if (value == null) s.setNull(index, Types.NULL);
    else if (value instanceof String v) s.setString(index, v);
    else if (value instanceof Integer v) s.setInt(index, v);
    else if (value instanceof Long v) s.setLong(index, v);
    else if (value instanceof Boolean v) s.setBoolean(index, v);
    else if (value instanceof Instant v) s.setObject(index, OffsetDateTime.ofInstant(v, ZoneOffset.UTC));
    else if (value instanceof OffsetDateTime v) s.setObject(index, v);
    else throw new IllegalArgumentException("parameter " + index + " of \"" + sql + "\" is a "
        + value.getClass().getName() + "; Sql binds String, Integer, Long, Boolean, Instant, OffsetDateTime or null");
  }
}
