package lab.exactlyonce.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The app's data directory as the backup and restore commands see it: the embedded H2 database
 * ({@value #DATABASE}.mv.db) and the small files beside it that make the data usable, such as the learner-cookie
 * key and the instructor secret (without the key, every learner's cookie would stop being valid after a restore).
 */
final class DataDirectory {
  static final String DATABASE = "eolab";
  static final String DATABASE_FILE = DATABASE + ".mv.db";

  static {
    // H2's auto-server (see jdbcUrl) would otherwise listen on every interface (refusing remote clients, but still
    // reachable); keep it on loopback. Read once when H2 first starts, so it is set before any H2 use.
    if (System.getProperty("h2.bindAddress") == null) System.setProperty("h2.bindAddress", "127.0.0.1");
  }

  private final Path dir;

  DataDirectory(Path dir) {
    this.dir = dir.toAbsolutePath().normalize();
  }

  Path path() {
    return dir;
  }

  Path databaseFile() {
    return dir.resolve(DATABASE_FILE);
  }

  /**
   * The JDBC URL of the embedded database. AUTO_SERVER lets a second process (the backup command) use the
   * database while the app has it open: H2 serves it over a local port whose key is in the lock file, so only a
   * process that can read the data directory can connect, and it listens on 127.0.0.1 only.
   */
  static String jdbcUrl(Path dir) {
    return "jdbc:h2:file:" + dir.toAbsolutePath().normalize().resolve(DATABASE) + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
  }

  /** Whether a process (this one or another) has the database open: H2 holds an OS lock on the file while it does. */
  boolean inUse() throws IOException {
    Path db = databaseFile();
    if (!Files.exists(db)) return false;
    try (FileChannel channel = FileChannel.open(db, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) return true;
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    }
  }

  /** Whether a file belongs to the database itself (copied by H2's BACKUP, or meaningless in a copy). */
  static boolean isDatabaseFile(String name) {
    return name.startsWith(DATABASE + ".") && (name.endsWith(".mv.db") || name.endsWith(".lock.db")
        || name.endsWith(".trace.db") || name.endsWith(".tempFile") || name.endsWith(".newFile"));
  }

  /** The files beside the database to keep in a backup (keys, secrets), as paths relative to the directory. */
  List<Path> sideFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> all = Files.walk(dir)) {
      all.filter(Files::isRegularFile)
          .filter(p -> !isDatabaseFile(p.getFileName().toString()))
          .map(dir::relativize)
          .sorted()
          .forEach(files::add);
    }
    return files;
  }

  boolean isEmpty() throws IOException {
    if (!Files.exists(dir)) return true;
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    }
  }
}
