package lab.exactlyonce;

import lab.exactlyonce.store.StoreSettings;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A fresh, empty PostgreSQL database for one test class, made on the server that {@code EOLAB_TEST_POSTGRES_URL}
 * (with {@code _USER} and {@code _PASSWORD}; or the system properties {@code eolab.test.postgres-url}, {@code -user}
 * and {@code -password}) names, and dropped on close. {@code .ci/run} starts Debian's PostgreSQL and names it, so
 * that CI runs the README's own test command. Without one the test class is skipped on a developer's machine, and
 * fails on CI ({@code CI=true}), where a skip would hide the multi-node tests.
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

  /** A new database; skips the calling test class (fails it on CI) when no PostgreSQL server was named. */
  public static TestPostgres create() {
    String url = setting("url");
    String missing = "no PostgreSQL named (EOLAB_TEST_POSTGRES_URL or -Deolab.test.postgres-url); .ci/run names one";
    if ("true".equals(System.getenv("CI"))) assertFalse(url.isBlank(), missing);
    assumeTrue(!url.isBlank(), missing);
    return new TestPostgres(url, setting("user"), setting("password"));
  }

  private static String setting(String name) {
    String property = System.getProperty("eolab.test.postgres-" + name);
    if (property != null) return property;
    String variable = System.getenv("EOLAB_TEST_POSTGRES_" + name.toUpperCase(Locale.ROOT));
    return variable == null ? "" : variable;
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

  /** A login role that was granted nothing, able to connect to this database (PUBLIC may) and no more. */
  public final class Role implements AutoCloseable {
    private final String role = name + "_stranger";
    private final String secret = UUID.randomUUID().toString();

    private Role() {
      sql("CREATE ROLE " + role + " LOGIN PASSWORD '" + secret + "'");
    }

    public Connection connect() throws SQLException {
      Connection c = DriverManager.getConnection(url(), role, secret);
      c.setAutoCommit(true);
      return c;
    }

    @Override
    public void close() {
      sql("DROP ROLE IF EXISTS " + role);
    }
  }

  /**
   * A new role granted nothing, as any other account of the database server may be: the tests' own role needs
   * {@code CREATEROLE} for this ({@code .ci/run} gives it).
   */
  public Role roleWithNoGrants() {
    return new Role();
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
