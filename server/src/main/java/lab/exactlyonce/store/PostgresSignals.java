package lab.exactlyonce.store;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;

/**
 * {@link Signals} over PostgreSQL {@code NOTIFY}/{@code LISTEN} on one channel. Messages are sent through the pool;
 * one connection of its own, outside the pool, listens, read by a daemon thread. When that connection breaks the
 * thread opens another (every second until it works) and tells the listener to resync, since messages sent in
 * between never reach it. Every message is sealed ({@link SignalSeal}): one that another node did not send is dropped
 * before the listener sees it.
 */
final class PostgresSignals implements Signals {
  private static final Logger log = LoggerFactory.getLogger(PostgresSignals.class);
  private static final int POLL_MILLIS = 500;

  private final Database db;
  private final String channel;
  private final String url;
  private final Properties login = new Properties();
  private final SignalSeal seal;
  private long refused;
  private volatile boolean closed;
  private Thread reader;

  /** @param channel a plain lower-case identifier: it is written into the LISTEN statement */
  PostgresSignals(Database db, String channel, String url, String user, String password, SignalSeal seal) {
    if (!channel.matches("[a-z_]{1,40}")) throw new IllegalArgumentException("bad channel name '" + channel + "'");
    this.db = db;
    this.seal = seal;
    this.channel = channel;
    this.url = url;
    if (!user.isEmpty()) login.setProperty("user", user);
    if (!password.isEmpty()) login.setProperty("password", password);
  }

  @Override
  public void publish(String message) {
    db.inTransaction(c -> Sql.optional(c, "SELECT pg_notify(?, ?)", rs -> true, channel, seal.seal(message)));
  }

  @Override
  public synchronized void listen(Listener listener) {
    if (reader != null) throw new IllegalStateException("already listening");
    Connection first = connect(); // the first connection fails the start, so a node never runs deaf
    reader = new Thread(() -> read(first, listener), "signals-" + channel);
    reader.setDaemon(true);
    reader.start();
  }

  private Connection connect() {
    try {
      Connection c = DriverManager.getConnection(url, login);
      c.setAutoCommit(true);
      try (Statement s = c.createStatement()) {
        s.execute("LISTEN " + channel);
      }
      return c;
    } catch (SQLException e) {
      throw new StoreException("cannot listen on the database for live updates: " + e.getMessage(), e);
    }
  }

  private void read(Connection first, Listener listener) {
    Connection c = first;
    while (!closed) {
      try {
        if (c == null) {
          c = connect();
          listener.resync();
        }
        PGNotification[] got = c.unwrap(PGConnection.class).getNotifications(POLL_MILLIS);
        if (got == null) continue;
        for (PGNotification n : got) {
          Optional<String> message = seal.open(n.getParameter());
          if (message.isPresent()) deliver(listener, message.get());
          else refuse(n);
        }
      } catch (SQLException | StoreException e) {
        if (closed) break;
        log.warn("the live-update connection to the database broke; reconnecting: {}", e.getMessage());
        closeQuietly(c);
        c = null;
        pause();
      }
    }
    closeQuietly(c);
  }

  /** Logs the first message refused and every thousandth after it: a flood must not flood the log too. */
  private void refuse(PGNotification n) {
    if (refused++ % 1000 == 0) {
      log.warn("refused {} live message(s) not sealed by a node, the last from database backend {}", refused, n.getPID());
    }
  }

  private static void deliver(Listener listener, String message) {
    try {
      listener.signal(message);
    } catch (RuntimeException e) {
      log.error("a live update could not be applied: {}", message, e);
    }
  }

  private void pause() {
    try {
      Thread.sleep(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  private static void closeQuietly(Connection c) {
    if (c == null) return;
    try {
      c.close();
    } catch (SQLException ignored) {
      // it is broken already
    }
  }

  @Override
  public void close() {
    closed = true;
    Thread t = reader;
    if (t != null) {
      try {
        t.join(2 * POLL_MILLIS + 500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
