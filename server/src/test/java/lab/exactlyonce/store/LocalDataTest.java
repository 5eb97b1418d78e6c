package lab.exactlyonce.store;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The data directory is the app's alone: one process, owner-only files, a database password, no port. */
class LocalDataTest {
  /** The embedded H2 database in the data dir, also when the tests run against another ({@code -Deolab.test.jdbc-url}). */
  private static Config embedded() {
    return TestConfig.defaults().withStore(StoreSettings.embedded());
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  /** Every entry under {@code dir} with a mode other than 0600 (files) or 0700 (directories). */
  private static List<String> notOwnerOnly(Path dir) throws Exception {
    List<String> loose = new ArrayList<>();
    if (!mode(dir).equals("rwx------")) loose.add(". " + mode(dir));
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.filter(p -> !p.equals(dir)).toList()) {
        String expected = Files.isDirectory(p) ? "rwx------" : "rw-------";
        if (!mode(p).equals(expected)) loose.add(dir.relativize(p) + " " + mode(p));
      }
    }
    return loose;
  }

  @Test
  void a_running_app_keeps_its_data_dir_and_every_file_in_it_to_its_owner_and_opens_no_database_port() throws Exception {
    Config config = embedded();
    try (TestServer server = TestServer.start(config)) {
      assertEquals(200, server.postJson("/api/events", "{\"id\":\"" + UUID.randomUUID()
          + "\",\"type\":\"section.read\",\"lesson\":\"exactly-once\",\"item\":\"guarantees\"}").statusCode());
      assertEquals(List.of(), notOwnerOnly(config.dataDir()));
      assertFalse(Files.exists(config.dataDir().resolve("eolab.lock.db")), "no H2 server lock file (it held a port and key)");
      assertTrue(Files.exists(config.dataDir().resolve("db-password")));
      SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(
          StoreSettings.embeddedJdbcUrl(config.dataDir()) + ";IFEXISTS=TRUE", "", "").close());
      assertEquals("28000", refused.getSQLState(), "the empty password does not open it");
      // Another process cannot share it: there is no server to reach, and the file is this process's.
      Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "org.h2.tools.Shell",
          "-url", StoreSettings.embeddedJdbcUrl(config.dataDir()) + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE",
          "-user", "", "-password", Files.readString(config.dataDir().resolve("db-password")).strip(), "-sql", "SELECT 1")
          .redirectErrorStream(true).start();
      String said = new String(other.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(other.waitFor(60, TimeUnit.SECONDS));
      assertTrue(said.contains("Database may be already in use"), said);
    }
  }

  @Test
  void a_data_dir_made_with_loose_modes_is_restricted_at_start() throws Exception {
    Config config = embedded();
    new App(config).stop();
    Files.setPosixFilePermissions(config.dataDir(), PosixFilePermissions.fromString("rwxr-xr-x"));
    try (Stream<Path> all = Files.list(config.dataDir())) {
      for (Path p : all.toList()) Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    }
    Files.createDirectories(config.dataDir().resolve("quiz-outputs"));
    Files.setPosixFilePermissions(config.dataDir().resolve("quiz-outputs"), PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(config.dataDir().resolve("quiz-outputs/abc.txt"), "cached");
    Files.setPosixFilePermissions(config.dataDir().resolve("quiz-outputs/abc.txt"), PosixFilePermissions.fromString("rw-r--r--"));
    Files.createDirectories(config.dataDir().resolve("eolab.backup-left-by-a-crash"));
    new App(config).stop();
    assertEquals(List.of(), notOwnerOnly(config.dataDir()));
    assertFalse(Files.exists(config.dataDir().resolve("eolab.backup-left-by-a-crash")), "a crashed backup's work is gone");
  }

  @Test
  void a_second_app_on_the_same_data_dir_is_refused_with_one_line_naming_the_first() throws Exception {
    Config config = embedded();
    try (TestServer first = TestServer.start(config)) {
      StoreException e = assertThrows(StoreException.class, () -> new App(config.withPort(0)));
      assertTrue(e.getMessage().matches("the data dir " + Pattern.quote(config.dataDir().toString())
              + " is in use by another Exactly-Once Lab \\(pid " + ProcessHandle.current().pid() + ", port " + first.app().port()
              + ", started [0-9T:-]+Z\\); stop it or use another --data-dir"), e.getMessage());
      assertEquals(200, first.get("/healthz").statusCode(), "the first app is untouched");
    }
    new App(config).stop(); // and the data dir is free once it stopped
  }

  @Test
  void what_a_killed_process_left_in_the_lock_file_does_not_block_a_start() throws Exception {
    Config config = embedded();
    Files.writeString(config.dataDir().resolve("eolab.instance"), "what=app\npid=999999\nport=7070\nstarted=2026-01-01T00:00:00Z\n");
    try (TestServer server = TestServer.start(config)) {
      String lock = Files.readString(config.dataDir().resolve("eolab.instance"));
      assertTrue(lock.contains("pid=" + ProcessHandle.current().pid() + "\n") && lock.contains("port=" + server.app().port()), lock);
    }
  }

  @Test
  void a_lost_password_file_stops_the_start_with_one_line_and_keeps_the_data() throws Exception {
    Config config = embedded();
    new App(config).stop();
    Path file = config.dataDir().resolve("db-password");
    String password = Files.readString(file);
    Files.delete(file);
    StoreException e = assertThrows(StoreException.class, () -> new App(config));
    assertEquals("the database " + config.dataDir().toAbsolutePath().resolve("eolab.mv.db") + " has a password but "
        + config.dataDir().toAbsolutePath().resolve("db-password") + " is missing; put back the db-password file from a "
        + "backup of this data dir", e.getMessage());
    Files.writeString(file, password);
    new App(config).stop(); // the file put back, it starts
    assertFalse(Files.exists(config.dataDir().resolve("db-password.new")), "the failed start's new password is gone");
  }

  /** A database as an earlier version left it: migrated, holding a learner, with an empty password. */
  private static void oldDatabase(Path dir) throws Exception {
    String url = StoreSettings.embeddedJdbcUrl(dir);
    Flyway.configure().dataSource(url, "", "").locations("classpath:db/migration").target("20").load().migrate();
    try (Connection c = DriverManager.getConnection(url, "", "")) {
      Sql.update(c, "INSERT INTO learners (id, created_at) VALUES ('ada', ?)", Instant.EPOCH);
    }
  }

  static Stream<Arguments> earlierDataDirs() {
    return Stream.of(
        arguments("made by an earlier version, without a password", (Setup) dir -> oldDatabase(dir)),
        arguments("left by a start that set the password and died before keeping its file", (Setup) dir -> {
          oldDatabase(dir);
          try (Connection c = DriverManager.getConnection(StoreSettings.embeddedJdbcUrl(dir), "", "")) {
            c.createStatement().execute("ALTER USER \"\" SET PASSWORD 'pending-one'");
          }
          Files.writeString(dir.resolve("db-password.new"), "pending-one\n");
        }),
        arguments("left by a start that wrote the new password and died before setting it", (Setup) dir -> {
          oldDatabase(dir);
          Files.writeString(dir.resolve("db-password.new"), "pending-two\n");
        }));
  }

  interface Setup {
    void apply(Path dir) throws Exception;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("earlierDataDirs")
  void an_earlier_data_dir_gets_a_password_and_keeps_its_data(String how, Setup setup) throws Exception {
    Config config = embedded();
    setup.apply(config.dataDir());
    new App(config).stop();
    String password = Files.readString(config.dataDir().resolve("db-password")).strip();
    assertFalse(password.isEmpty());
    assertFalse(Files.exists(config.dataDir().resolve("db-password.new")));
    assertEquals("rw-------", mode(config.dataDir().resolve("db-password")));
    String url = StoreSettings.embeddedJdbcUrl(config.dataDir());
    SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, "", "").close());
    assertEquals("28000", refused.getSQLState(), "the empty password no longer opens it");
    try (Connection c = DriverManager.getConnection(url, "", password)) {
      assertEquals(List.of("ada"), Sql.list(c, "SELECT id FROM learners", rs -> rs.getString(1)), how);
    }
    new App(config).stop(); // and the next start opens it with the kept password
  }
}
