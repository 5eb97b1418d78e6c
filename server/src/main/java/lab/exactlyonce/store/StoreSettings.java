package lab.exactlyonce.store;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where the database is. An empty {@code jdbcUrl} means the embedded H2 file database under the data directory;
 * a {@code jdbc:postgresql://...} URL works as well (the SQL is portable).
 */
public record StoreSettings(Optional<String> jdbcUrl, String user, String password) {

  /** Flag name to environment variable name, merged into the app's option table. */
  public static final Map<String, String> FLAGS = Map.of(
      "--jdbc-url", "JDBC_URL",
      "--jdbc-user", "JDBC_USER",
      "--jdbc-password", "JDBC_PASSWORD");

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

  public static StoreSettings from(Function<String, Optional<String>> option) {
    return new StoreSettings(option.apply("--jdbc-url"), option.apply("--jdbc-user").orElse(""),
        option.apply("--jdbc-password").orElse(""));
  }

  @Override
  public String toString() {
    return "StoreSettings[jdbcUrl=" + jdbcUrl + ", user=" + user + ", password=" + (password.isEmpty() ? "" : "***") + "]";
  }
}
