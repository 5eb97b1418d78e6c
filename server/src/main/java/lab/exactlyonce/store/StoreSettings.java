package lab.exactlyonce.store;

import lab.exactlyonce.option.Option;
import lab.exactlyonce.option.OptionValues;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the database is. An empty {@code jdbcUrl} means the embedded H2 file database under the data directory;
 * a {@code jdbc:postgresql://...} URL works as well (the SQL is portable).
 */
public record StoreSettings(Optional<String> jdbcUrl, String user, String password) {

  private static final Option JDBC_URL = Option.withoutDefault("--jdbc-url", "JDBC_URL",
      "H2 file `<data dir>/eolab.mv.db`", "a JDBC URL (H2 or PostgreSQL)",
      "the database for learners and progress, e.g. `jdbc:postgresql://db:5432/eolab`");
  private static final Option JDBC_USER = Option.withoutDefault("--jdbc-user", "JDBC_USER", "none", "a user name",
      "database user");
  private static final Option JDBC_PASSWORD = Option.withoutDefault("--jdbc-password", "JDBC_PASSWORD", "none",
      "a password", "database password (prefer the environment variable)");

  /** The database's options. */
  public static final List<Option> OPTIONS = List.of(JDBC_URL, JDBC_USER, JDBC_PASSWORD);

  public StoreSettings {
    jdbcUrl = jdbcUrl == null ? Optional.empty() : jdbcUrl.map(String::trim).filter(u -> !u.isEmpty());
    jdbcUrl.ifPresent(url -> {
      if (!url.startsWith("jdbc:")) {
        throw new IllegalArgumentException("--jdbc-url must start with 'jdbc:', got '" + url + "'");
      }
    });
    user = user == null ? "" : user;
    password = password == null ? "" : password;
  }

  /** The embedded H2 database's URL under {@code dataDir} (shared with the backup and restore commands). */
  public static String embeddedJdbcUrl(Path dataDir) {
    return DataDirectory.jdbcUrl(dataDir);
  }

  public static StoreSettings embedded() {
    return new StoreSettings(Optional.empty(), "", "");
  }

  public static StoreSettings from(OptionValues values) {
    return new StoreSettings(values.given(JDBC_URL), values.given(JDBC_USER).orElse(""),
        values.given(JDBC_PASSWORD).orElse(""));
  }

  @Override
  public String toString() {
    return "StoreSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password.isEmpty() ? "" : "***") + "]";
  }
}
