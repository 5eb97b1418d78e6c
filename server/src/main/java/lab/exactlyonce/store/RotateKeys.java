package lab.exactlyonce.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rotates the keys that sign learner cookies and instructor sessions ({@link SigningKeys}), for when one may have
 * leaked:
 * <pre>
 *   java -cp exactly-once-lab.jar lab.exactlyonce.store.RotateKeys --data-dir data             (embedded H2)
 *   JDBC_PASSWORD=... java -cp exactly-once-lab.jar lab.exactlyonce.store.RotateKeys --jdbc-url jdbc:postgresql://...
 *       [--jdbc-user USER]                                                                      (PostgreSQL)
 * </pre>
 * Nobody is logged out: what the old key signed still verifies, and a learner's cookie is signed again with the new
 * key on their next request. The key before the old one stops verifying, so a leaked key is worthless after two
 * rotations. On PostgreSQL the nodes keep running and sign with the new key after {@link SigningKeys#SIGNING_DELAY}
 * (by then every node has read it, so none refuses a cookie another signed); the embedded database allows one
 * process, so there the app must be stopped first and the new key signs at once.
 */
public final class RotateKeys {
  private static final String USAGE = "usage: java -cp exactly-once-lab.jar lab.exactlyonce.store.RotateKeys "
      + "--data-dir DIR | --jdbc-url URL [--jdbc-user USER] (the password in JDBC_PASSWORD)";

  private RotateKeys() {}

  public static void main(String[] args) {
    System.exit(run(args, System.getenv("JDBC_PASSWORD"), Clock.systemUTC(), System.out, System.err));
  }

  /**
   * Runs the command; returns the exit status (0 done, 2 refused or failed, with a one-line reason on {@code err}).
   * The new keys sign from {@code clock}'s now (plus the delay), so it must be the clock the nodes read.
   */
  public static int run(String[] args, String jdbcPassword, Clock clock, PrintStream out, PrintStream err) {
    try {
      Options options = Options.parse(args);
      Database db = options.jdbcUrl().isPresent()
          ? Database.open(options.jdbcUrl().get(), options.jdbcUser(), jdbcPassword == null ? "" : jdbcPassword)
          : embedded(options.dataDir());
      boolean shared = options.jdbcUrl().isPresent();   // other nodes may be reading the keys: give them time
      try (db) {
        List<String> rotated = new ArrayList<>();
        for (String purpose : SigningKeys.purposes(db)) {
          int generation = SigningKeys.existing(db, purpose, clock).rotate(shared
              ? SigningKeys.SIGNING_DELAY : Duration.ZERO);
          rotated.add(purpose + " to generation " + generation);
        }
        if (rotated.isEmpty()) throw new Backup.CommandException("the database has no keys yet; start the app once first");
        out.println("rotated " + String.join(" and ", rotated) + ". What the keys before these signed still verifies"
            + " (learners get cookies signed anew on their next visit); keys older than that no longer verify."
            + (shared ? " Running nodes sign with the new keys in " + SigningKeys.SIGNING_DELAY.toSeconds()
            + " s, once every node has read them." : ""));
        return 0;
      }
    } catch (Backup.CommandException | StoreException e) {
      err.println("rotate keys: " + e.getMessage());
      return 2;
    }
  }

  private static Database embedded(Path dir) {
    if (!Files.exists(new DataDirectory(dir).databaseFile())) {
      throw new Backup.CommandException("no database in " + dir + " (expected " + DataDirectory.DATABASE_FILE + ")");
    }
    Optional<String> holder;
    try {
      holder = InstanceLock.heldBy(new DataDirectory(dir).path());
    } catch (IOException e) {
      throw new Backup.CommandException("cannot read the lock of the data dir " + dir + ": " + e.getMessage());
    }
    if (holder.isPresent()) {
      throw new Backup.CommandException("the data dir " + dir + " is in use by " + holder.get() + "; the embedded "
          + "database allows one process, so stop the app, rotate, and start it again");
    }
    return LocalData.claim(dir).open(StoreSettings.embedded());
  }

  /** {@code --data-dir DIR}, or {@code --jdbc-url URL} with an optional {@code --jdbc-user USER}. */
  record Options(Path dataDir, Optional<String> jdbcUrl, String jdbcUser) {
    static Options parse(String[] args) {
      Path dataDir = null;
      String url = null;
      String user = "";
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (!arg.equals("--data-dir") && !arg.equals("--jdbc-url") && !arg.equals("--jdbc-user")) {
          throw new Backup.CommandException("unknown option '" + arg + "'; " + USAGE);
        }
        if (i + 1 >= args.length) throw new Backup.CommandException("option '" + arg + "' needs a value; " + USAGE);
        String value = args[++i];
        switch (arg) {
          case "--data-dir" -> dataDir = Path.of(value);
          case "--jdbc-url" -> url = value;
          default -> user = value;
        }
      }
      if ((dataDir == null) == (url == null)) throw new Backup.CommandException(USAGE);
      if (url != null && !url.startsWith("jdbc:")) {
        throw new Backup.CommandException("--jdbc-url must start with 'jdbc:', got '" + url + "'");
      }
      return new Options(dataDir, Optional.ofNullable(url), user);
    }
  }
}
