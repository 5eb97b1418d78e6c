package lab.exactlyonce.store;

import lab.exactlyonce.TestClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.UUID;

/**
 * A migrated database for storage tests: a fresh H2 file, or the one named by {@code -Deolab.test.jdbc-url} (with
 * {@code -Deolab.test.jdbc-user} and {@code -Deolab.test.jdbc-password}), such as a PostgreSQL; tests on a shared
 * database use fresh ids.
 */
public final class TestDatabase {
  private TestDatabase() {}

  public static Database open() {
    String url = System.getProperty("eolab.test.jdbc-url");
    if (url != null && !url.isBlank()) {
      return Database.open(url, System.getProperty("eolab.test.jdbc-user", ""), System.getProperty("eolab.test.jdbc-password", ""));
    }
    try {
      return Database.open("jdbc:h2:file:" + Files.createTempDirectory("eolab-test-db").resolve("db"), "", "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Adds a learner row (what events hang off) with a fresh id, and returns the id. */
  public static String learner(Database db) {
    String id = UUID.randomUUID().toString();
    db.inTransaction(c -> Sql.update(c, "INSERT INTO learners (id, created_at) VALUES (?, ?)", id, TestClock.BASE));
    return id;
  }
}
