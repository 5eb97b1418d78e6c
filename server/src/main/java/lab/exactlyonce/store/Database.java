package lab.exactlyonce.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The app's database: a HikariCP pool, migrated by Flyway ({@code db/migration/V<n>__<name>.sql} on the class
 * path) before anything uses it. Every unit of work runs in one transaction through {@link #inTransaction}; each
 * feature writes its own SQL, kept to what H2 and PostgreSQL both accept, and runs it with {@link Sql}.
 */
public final class Database implements AutoCloseable {
  /** SQLState of a unique-key violation in both H2 and PostgreSQL. */
  public static final String DUPLICATE_KEY = "23505";

  private final HikariDataSource pool;
  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final List<AutoCloseable> closedAfter = new CopyOnWriteArrayList<>();
  private final List<Signals> closedFirst = new CopyOnWriteArrayList<>();
  /**
   * Shared by every transaction, taken alone by {@link #alone}: H2's online {@code BACKUP TO} copies each of the
   * store's maps consistently but not the maps together while transactions commit, and a copy taken under a stream of
   * writes once held an index entry whose row was missing.
   */
  private final ReadWriteLock commits = new ReentrantReadWriteLock();

  private Database(HikariDataSource pool, String jdbcUrl, String user, String password) {
    this.pool = pool;
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
  }

  /**
   * Whether other app nodes may share this database: true for PostgreSQL. The embedded H2 file database belongs to
   * one process (its data directory is locked).
   */
  public boolean shared() {
    return jdbcUrl.startsWith("jdbc:postgresql:");
  }

  /**
   * Messages to every node on this database, on {@code channel} (see {@link Signals}), sealed with the nodes' shared
   * key where other nodes may share it ({@code clock} dates them); closed with the database. Open one per channel.
   */
  public Signals signals(String channel, Clock clock) {
    Signals signals = shared()
        ? new PostgresSignals(this, channel, jdbcUrl, user, password, SignalSeal.load(this, clock))
        : new LocalSignals();
    closedFirst.add(signals);
    return signals;
  }

  /**
   * Closes {@code resource} once the pool is closed, after those handed over before it (the backup socket, then the
   * data directory's lock, which goes last).
   */
  void closeAfter(AutoCloseable resource) {
    closedAfter.add(resource);
  }

  /**
   * Opens the pool and migrates the schema.
   *
   * @throws StoreException with a one-line message naming the database when it cannot be reached or migrated
   */
  public static Database open(String jdbcUrl, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    if (!user.isEmpty()) config.setUsername(user);
    if (!password.isEmpty()) config.setPassword(password);
    config.setPoolName("eolab-db");
    config.setMaximumPoolSize(8);
    config.setConnectionTimeout(10_000);
    config.setAutoCommit(false);
    config.setInitializationFailTimeout(1);
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new StoreException("cannot open the database " + redact(jdbcUrl) + ": " + rootMessage(e), e);
    }
    try {
      migrate(pool);
    } catch (FlywayException e) {
      pool.close();
      throw new StoreException("cannot migrate the database " + redact(jdbcUrl) + ": " + rootMessage(e), e);
    }
    return new Database(pool, jdbcUrl, user, password);
  }

  private static void migrate(DataSource dataSource) {
    Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .failOnMissingLocations(true)
        .load()
        .migrate();
  }

  /** A unit of work on one connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
  public <T> T inTransaction(Work<T> work) {
    return holding(commits.readLock(), work);
  }

  /**
   * Runs {@code work} in one transaction while no other runs: the others wait until it ends. For a copy of the whole
   * database (the backup), which must not see one table's change without the other's.
   */
  public <T> T alone(Work<T> work) {
    return holding(commits.writeLock(), work);
  }

  private <T> T holding(Lock lock, Work<T> work) {
    lock.lock();
    try {
      return transaction(work);
    } finally {
      lock.unlock();
    }
  }

  private <T> T transaction(Work<T> work) {
    try (Connection connection = pool.getConnection()) {
      connection.setAutoCommit(false);
      try {
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollback(connection, e);
        throw e;
      }
    } catch (SQLException e) {
      throw new StoreException("database error (SQLState " + e.getSQLState() + "): " + e.getMessage(), e);
    }
  }

  private static void rollback(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /** True when {@code error} (or one it wraps) is a unique-key violation. */
  public static boolean isDuplicateKey(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        for (SQLException s = sql; s != null; s = s.getNextException()) {
          if (DUPLICATE_KEY.equals(s.getSQLState())) return true;
        }
      }
    }
    return false;
  }

  /** Closes the pool, then what was handed to {@link #closeAfter}; closing again does nothing. */
  @Override
  public void close() {
    for (Signals signals : closedFirst) {
      closedFirst.remove(signals);
      signals.close();
    }
    pool.close();
    for (AutoCloseable resource : closedAfter) {
      closedAfter.remove(resource);
      try {
        resource.close();
      } catch (Exception e) {
        System.err.println("closing " + resource + ": " + e.getMessage());
      }
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return message.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse(message);
  }

  /** Keeps passwords written into a URL out of logs and error lines. */
  static String redact(String jdbcUrl) {
    return "'" + jdbcUrl.replaceAll("(?i)(password=)[^;&]*", "$1***") + "'";
  }
}
