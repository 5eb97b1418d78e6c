package lab.exactlyonce.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;

/**
 * The embedded database's password: made at the first start, kept in {@value #FILE} (owner-only) beside the database
 * and part of every backup. A database made by an earlier version, which had an empty password, is given one at the
 * first start of this version; the new password is written to {@value #PENDING} before the database is changed and
 * renamed to {@value #FILE} after, so a start that dies between the two steps is finished by the next one.
 */
final class DatabasePassword {
  static final String FILE = "db-password";
  static final String PENDING = "db-password.new";
  /** The embedded database's user: the one H2 makes when the first connection names none. */
  static final String USER = "";
  /** SQLState of a refused sign-in (H2 and PostgreSQL). */
  private static final String WRONG_PASSWORD = "28000";

  private DatabasePassword() {}

  /** The password of the database in {@code data}, setting one first if the database has none. */
  static String ensure(DataDirectory data) throws IOException {
    Path file = data.path().resolve(FILE);
    Path pending = data.path().resolve(PENDING);
    if (Files.exists(file)) {
      Files.deleteIfExists(pending); // a start that could not use it: the kept file is the password
      return read(file);
    }
    String password = Files.exists(pending) ? read(pending) : write(pending, generate());
    if (Files.exists(data.databaseFile())) {
      try {
        setPassword(data, password);
      } catch (SQLException e) {
        throw new StoreException("cannot set the database password of " + data.databaseFile() + ": " + e.getMessage(), e);
      }
    }
    Files.move(pending, file, StandardCopyOption.ATOMIC_MOVE);
    return password;
  }

  /** The password the backup command opens a stopped app's database with: empty for a database not yet given one. */
  static String current(DataDirectory data) throws IOException {
    Path file = data.path().resolve(FILE);
    return Files.exists(file) ? read(file) : "";
  }

  private static void setPassword(DataDirectory data, String password) throws SQLException {
    String url = DataDirectory.jdbcUrl(data.path()) + ";IFEXISTS=TRUE";
    Connection c;
    try {
      c = DriverManager.getConnection(url, USER, "");
    } catch (SQLException e) {
      if (!WRONG_PASSWORD.equals(e.getSQLState())) throw e;
      // An earlier start set the pending password and stopped before renaming its file: it is the password now.
      try {
        DriverManager.getConnection(url, USER, password).close();
      } catch (SQLException other) {
        if (!WRONG_PASSWORD.equals(other.getSQLState())) throw other;
        throw new StoreException("the database " + data.databaseFile() + " has a password but " + data.path().resolve(FILE)
            + " is missing; put back the db-password file from a backup of this data dir", other);
      }
      return;
    }
    try (c; PreparedStatement s = c.prepareStatement("ALTER USER \"" + USER + "\" SET PASSWORD ?")) {
      s.setString(1, password);
      s.execute();
    }
  }

  private static String generate() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String write(Path file, String password) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(file);
    DataDirectory.ownerOnly(file);
    Files.writeString(file, password + "\n", StandardCharsets.UTF_8, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
    return password;
  }

  private static String read(Path file) throws IOException {
    String password = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (password.isEmpty()) {
      throw new StoreException(file + " is empty; restore it from a backup of this data dir (the database cannot be "
          + "opened without it)", null);
    }
    return password;
  }
}
