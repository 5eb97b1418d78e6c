package lab.exactlyonce.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The data directory as the running app holds it: claimed for this process alone ({@link InstanceLock}), owner-only,
 * cleared of what a crashed run left, and the embedded database opened in it with its password
 * ({@link DatabasePassword}) and offered to the backup command over a local socket ({@link BackupChannel}). Closing
 * the {@link Database} it opened lets the directory go.
 */
public final class LocalData {
  private final DataDirectory data;
  private final String shown;
  private final InstanceLock lock;

  private LocalData(DataDirectory data, String shown, InstanceLock lock) {
    this.data = data;
    this.shown = shown;
    this.lock = lock;
  }

  /**
   * Claims {@code dir} for this process: creates it if needed, takes its lock, restricts it to its owner and removes
   * work a crashed run left in it.
   *
   * @throws StoreException with the one line the operator reads, such as "the data dir ./data is in use by another
   *     Exactly-Once Lab (pid 1234, port 7070, started ...); stop it or use another --data-dir"
   */
  public static LocalData claim(Path dir) {
    DataDirectory data = new DataDirectory(dir);
    String shown = dir.toString();
    try {
      data.create();
    } catch (IOException e) {
      throw new StoreException("cannot create the data dir " + shown + ": " + e.getMessage(), e);
    }
    InstanceLock lock = InstanceLock.acquire(data.path(), shown, "app");
    try {
      data.restrict();
      removeLeftovers(data);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw new StoreException("cannot prepare the data dir " + shown + ": " + e.getMessage(), e);
    }
    return new LocalData(data, shown, lock);
  }

  private static void removeLeftovers(DataDirectory data) throws IOException {
    try (Stream<Path> entries = Files.list(data.path())) {
      for (Path p : entries.toList()) {
        if (p.getFileName().toString().startsWith(DataDirectory.BACKUP_WORK_PREFIX)) DataDirectory.deleteTree(p);
      }
    }
  }

  /**
   * Opens the database: the one {@code settings} names, or else the embedded H2 database in the directory (with its
   * password, set now if an earlier version left it without one, and the backup socket). The directory is let go
   * when the database is closed, also when opening fails.
   */
  public Database open(StoreSettings settings) {
    try {
      Database db = settings.jdbcUrl().isPresent()
          ? Database.open(settings.jdbcUrl().get(), settings.user(), settings.password())
          : openEmbedded();
      db.closeAfter(lock);
      return db;
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private Database openEmbedded() {
    String password;
    try {
      password = DatabasePassword.ensure(data);
    } catch (IOException e) {
      throw new StoreException("cannot read or write the database password in " + shown + ": " + e.getMessage(), e);
    }
    Database db = Database.open(DataDirectory.jdbcUrl(data.path()), DatabasePassword.USER, password);
    try {
      data.restrict(); // the files H2 has just made
    } catch (IOException e) {
      db.close();
      throw new StoreException("cannot restrict the database files in " + shown + " to their owner: " + e.getMessage(), e);
    }
    try {
      db.closeAfter(BackupChannel.open(data, password, zip -> db.alone(c -> {
        try {
          return Backup.write(c, data, zip);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      })));
    } catch (IOException e) {
      System.err.println("online backup is off: cannot open the backup socket in " + data.path() + " (" + e.getMessage()
          + "); stop the app to take a backup");
    }
    return db;
  }

  /** Records the port the app serves on, so that a second start on this directory can name it. */
  public void serving(int port) {
    lock.serving(port);
  }
}
