package lab.exactlyonce.store;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatabaseTest {

  @Test
  void a_fresh_database_is_migrated_to_the_learner_and_event_tables() throws Exception {
    Path dir = Files.createTempDirectory("eolab-db");
    try (Database db = Database.open("jdbc:h2:file:" + dir.resolve("fresh"), "", "")) {
      List<String> tables = db.inTransaction(c -> {
        var names = new ArrayList<String>();
        try (ResultSet rs = c.getMetaData().getTables(null, null, null, new String[] {"TABLE"})) {
          while (rs.next()) if (!"INFORMATION_SCHEMA".equals(rs.getString("TABLE_SCHEM"))) names.add(rs.getString("TABLE_NAME"));
        }
        return names.stream().sorted().toList();
      });
      assertTrue(tables.containsAll(List.of("EVENTS", "LEARNERS", "flyway_schema_history")), tables.toString());
      List<String> applied = db.inTransaction(c -> {
        var scripts = new ArrayList<String>();
        try (PreparedStatement s = c.prepareStatement(
            "SELECT \"script\" FROM \"flyway_schema_history\" WHERE \"success\" = TRUE AND \"version\" IS NOT NULL ORDER BY \"installed_rank\"");
             ResultSet rs = s.executeQuery()) {
          while (rs.next()) scripts.add(rs.getString(1));
        }
        return scripts;
      });
      assertEquals("V1__learners_and_events.sql", applied.get(0));
      assertEquals(migrationsOnClassPath(), applied.size(), "every migration applied: " + applied);
    }
    // opening again migrates nothing and keeps working
    try (Database db = Database.open("jdbc:h2:file:" + dir.resolve("fresh"), "", "")) {
      assertEquals(0, (int) db.inTransaction(c -> {
        try (PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM events"); ResultSet rs = s.executeQuery()) {
          rs.next();
          return rs.getInt(1);
        }
      }));
    }
  }

  private static long migrationsOnClassPath() throws Exception {
    Path dir = Path.of(DatabaseTest.class.getResource("/db/migration").toURI());
    try (var files = Files.list(dir)) {
      // SQL migrations, and Java ones where the data must be read to be migrated
      return files.filter(f -> f.getFileName().toString().matches("V[0-9_]+__[^$]*\\.(sql|class)")).count();
    }
  }

  /**
   * A transaction run alone (the backup's) keeps every other out until it ends: a write asked for meanwhile waits, and
   * commits after it. A write let through mid-copy is what made a backup restore an index entry without its row.
   */
  @Test
  void a_write_waits_while_a_transaction_runs_alone_and_commits_after_it() throws Exception {
    Path dir = Files.createTempDirectory("eolab-db");
    try (Database db = Database.open("jdbc:h2:file:" + dir.resolve("alone"), "", "")) {
      var written = new CompletableFuture<Integer>();
      Thread writer = new Thread(() -> {
        try {
          written.complete(db.inTransaction(c -> c.createStatement().executeUpdate(
              "INSERT INTO learners (id, created_at) VALUES ('w', CURRENT_TIMESTAMP)")));
        } catch (RuntimeException e) {
          written.completeExceptionally(e);
        }
      });
      int seenAlone = db.alone(c -> {
        writer.start();
        // Parked: the only place its transaction can wait before it has a connection is the lock.
        await().atMost(Duration.ofSeconds(20)).until(() -> writer.getState() == Thread.State.WAITING);
        assertFalse(written.isDone(), "the write got through while the transaction ran alone");
        return learners(c);
      });
      assertEquals(0, seenAlone);
      assertEquals(1, written.get(20, TimeUnit.SECONDS), "the write commits once the transaction alone has ended");
      writer.join();
      assertEquals(1, (int) db.inTransaction(DatabaseTest::learners));
    }
  }

  private static int learners(Connection c) throws SQLException {
    try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM learners")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void a_duplicate_key_is_recognised_by_its_sqlstate_and_rolls_back_the_whole_transaction() throws Exception {
    Path dir = Files.createTempDirectory("eolab-db");
    try (Database db = Database.open("jdbc:h2:file:" + dir.resolve("dup"), "", "")) {
      db.inTransaction(c -> c.createStatement().executeUpdate(
          "INSERT INTO learners (id, created_at) VALUES ('a', CURRENT_TIMESTAMP)"));
      StoreException e = assertThrows(StoreException.class, () -> db.inTransaction(c -> {
        c.createStatement().executeUpdate("INSERT INTO learners (id, created_at) VALUES ('b', CURRENT_TIMESTAMP)");
        return c.createStatement().executeUpdate("INSERT INTO learners (id, created_at) VALUES ('a', CURRENT_TIMESTAMP)");
      }));
      assertTrue(e.isDuplicateKey());
      assertEquals(1, (int) db.inTransaction(DatabaseTest::learners),
          "the insert of 'b' was rolled back with the failed one");
    }
  }

  @Test
  void a_database_that_cannot_be_opened_is_one_readable_line_without_the_password() {
    Config config = TestConfig.defaults().withStore(new StoreSettings(
        Optional.of("jdbc:postgresql://127.0.0.1:1/eolab?password=hunter2"), "eolab", "secret"));
    StoreException e = assertThrows(StoreException.class, () -> new App(config));
    assertTrue(e.getMessage().startsWith("cannot open the database 'jdbc:postgresql://127.0.0.1:1/eolab?password=***': "),
        e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    assertTrue(!e.getMessage().contains("hunter2") && !e.getMessage().contains("secret"), e.getMessage());
  }

  @Test
  void a_schema_the_migrations_cannot_handle_is_one_readable_line() throws Exception {
    Path dir = Files.createTempDirectory("eolab-db");
    String url = "jdbc:h2:file:" + dir.resolve("broken");
    try (var c = DriverManager.getConnection(url)) {
      c.createStatement().executeUpdate("CREATE TABLE learners (something INT)"); // in the way of V1
    }
    StoreException e = assertThrows(StoreException.class, () -> Database.open(url, "", ""));
    assertTrue(e.getMessage().startsWith("cannot migrate the database '" + url + "': "), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void a_damaged_cookie_key_stops_the_start_with_one_line() throws Exception {
    Config config = TestConfig.defaults();
    Files.writeString(config.dataDir().resolve("learner-cookie.key"), "not base64 at all!\n");
    StoreException e = assertThrows(StoreException.class, () -> new App(config));
    assertEquals(config.dataDir().resolve("learner-cookie.key") + " is not a base64 key; delete it to make a new one "
        + "(learners will start afresh)", e.getMessage());
  }

  @Test
  void the_cookie_key_is_made_once_and_readable_only_by_its_owner() throws Exception {
    Config config = TestConfig.defaults();
    new App(config).stop();
    Path key = config.dataDir().resolve("learner-cookie.key");
    String first = Files.readString(key);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
    new App(config).stop();
    assertEquals(first, Files.readString(key));
  }
}
