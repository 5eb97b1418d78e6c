package lab.exactlyonce;

import lab.exactlyonce.store.StoreSettings;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A fresh, empty PostgreSQL database for one test class, made on the server that {@code -Deolab.test.postgres-url}
 * (with {@code -user} and {@code -password}) names, and dropped on close. {@code .ci/run} starts Debian's
 * PostgreSQL and passes these; without them the test class is skipped.
 */
public final class TestPostgres implements AutoCloseable {
  private final String server;
  private final String user;
  private final String password;
  private final String name = "eolab_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

  private TestPostgres(String server, String user, String password) {
    this.server = server;
    this.user = user;
    this.password = password;
    sql("CREATE DATABASE " + name);
  }

  /** A new database; skips the calling test class when no PostgreSQL server was named. */
  public static TestPostgres create() {
    String url = System.getProperty("eolab.test.postgres-url");
    assumeTrue(url != null && !url.isBlank(), "no PostgreSQL named (-Deolab.test.postgres-url); .ci/run names one");
    return new TestPostgres(url, System.getProperty("eolab.test.postgres-user", ""),
        System.getProperty("eolab.test.postgres-password", ""));
  }

  /** The JDBC URL of this test's database. */
  public String url() {
    return server.substring(0, server.lastIndexOf('/') + 1) + name;
  }

  public String user() {
    return user;
  }

  public String password() {
    return password;
  }

  public StoreSettings store() {
    return new StoreSettings(Optional.of(url()), user, password);
  }

  @Override
  public void close() {
    sql("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  }

  private void sql(String statement) {
    try (Connection c = DriverManager.getConnection(server, user, password); Statement s = c.createStatement()) {
      s.execute(statement);
    } catch (SQLException e) {
      throw new IllegalStateException(statement + ": " + e.getMessage(), e);
    }
  }
}
