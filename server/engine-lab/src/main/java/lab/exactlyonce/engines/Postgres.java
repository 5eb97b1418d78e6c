package lab.exactlyonce.engines;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A PostgreSQL 14 server, its binaries unpacked from the engine jar into the process's own temp dir and run as the
 * engine JVM's uid (PostgreSQL refuses to run as root), listening on 127.0.0.1 only. Its log is written at the
 * {@code logical} level, so a connector can read committed changes through a replication slot.
 */
final class Postgres implements AutoCloseable {
  static final String USER = "postgres";

  private final EmbeddedPostgres server;

  Postgres() throws Exception {
    // Java names the user "?" when the uid has no entry in the user database; initdb would fail without saying why.
    if ("?".equals(System.getProperty("user.name"))) {
      throw new IllegalStateException("PostgreSQL cannot start: the engines' uid has no user name (initdb looks it up)."
          + " The engine lab names it inside the engines' own mount namespace, which this host did not give them;"
          + " or add the user: useradd --system --uid <the --engine-lab-uid> --no-create-home eolab-engines");
    }
    Path dir = Files.createTempDirectory("postgres");
    server = EmbeddedPostgres.builder()
        .setDataDirectory(dir.resolve("data"))
        .setServerConfig("listen_addresses", "127.0.0.1")
        // No Unix socket: the engines' temp dir can be deeper than a socket path may be (107 bytes).
        .setServerConfig("unix_socket_directories", "")
        .setServerConfig("wal_level", "logical")
        .setServerConfig("max_replication_slots", "4")
        .setServerConfig("max_wal_senders", "4")
        // Sized for five orders a run, not a production load.
        .setServerConfig("max_connections", "20")
        .setServerConfig("shared_buffers", "16MB")
        .setServerConfig("fsync", "off")
        .setPGStartupWait(Duration.ofSeconds(30)) // a loaded 2-core machine
        .start();
  }

  int port() {
    return server.getPort();
  }

  Connection connect(String database) throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port() + "/" + database + "?user=" + USER);
  }

  /** A database of the run's own, so that its tables, publication and slot go with it. */
  void createDatabase(String name) throws SQLException {
    try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
  }

  void dropDatabase(String name, String slot) throws SQLException {
    try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
      s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
          + " WHERE slot_name = '" + slot + "'");
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
