package lab.exactlyonce.store;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The app's data directory: the embedded H2 database ({@value #DATABASE}.mv.db) and the small files beside it that make
 * the data usable, such as the learner-cookie key, the instructor secret and the database password (without the key,
 * every learner's cookie would stop being valid after a restore). The directory is its owner's only (0700) and so is
 * every file the app keeps in it (0600).
 */
final class DataDirectory {
  static final String DATABASE = "eolab";
  static final String DATABASE_FILE = DATABASE + ".mv.db";
  /** Where a backup is assembled while the app runs; left over only by a crash, and removed at the next start. */
  static final String BACKUP_WORK_PREFIX = DATABASE + ".backup-";
  /** The files of other features that the app keeps here (the database's own all start with {@value #DATABASE}). */
  private static final Set<String> APP_FILES = Set.of("learner-cookie.key", "instructor-secret", "quiz-outputs",
      DatabasePassword.FILE, DatabasePassword.PENDING);

  private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> DIR_MODE = PosixFilePermissions.fromString("rwx------");

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
   * The JDBC URL of the embedded database: a file opened by this process alone, with no server mode (no port). The
   * backup command reaches a running app through {@link BackupChannel} instead. WRITE_DELAY=0 makes H2 write every
   * commit to the file before the commit returns: with H2's default (written within a second) an acknowledged event
   * would be lost if the process were killed right after answering. A request that inserts a key another
   * transaction is inserting waits for that one to end; LOCK_TIMEOUT gives it 10 s rather than H2's 2, so that a
   * burst of answers to one question on a busy laptop ends in 200 or 409, not in a timeout.
   */
  static String jdbcUrl(Path dir) {
    return "jdbc:h2:file:" + dir.toAbsolutePath().normalize().resolve(DATABASE) + ";WRITE_DELAY=0;LOCK_TIMEOUT=10000";
  }

  /** Whether a file belongs to the database itself (copied by H2's BACKUP, or meaningless in a copy). */
  static boolean isDatabaseFile(String name) {
    return name.startsWith(DATABASE + ".") && (name.endsWith(".mv.db") || name.endsWith(".lock.db")
        || name.endsWith(".trace.db") || name.endsWith(".tempFile") || name.endsWith(".newFile"));
  }

  /** Whether a top-level entry only means something to the process that made it (a lock, a socket, work in progress). */
  static boolean isTransient(String name) {
    return name.equals(InstanceLock.FILE) || name.equals(BackupChannel.SOCKET) || name.startsWith(BACKUP_WORK_PREFIX)
        || name.equals(DatabasePassword.PENDING);
  }

  /** The files beside the database to keep in a backup (keys, secrets), as paths relative to the directory. */
  List<Path> sideFiles() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> all = Files.walk(dir)) {
      all.filter(Files::isRegularFile)
          .map(dir::relativize)
          .filter(p -> !isDatabaseFile(p.getFileName().toString()) && !isTransient(p.getName(0).toString()))
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

  /** Creates the directory if needed, owner-only from the start. */
  void create() throws IOException {
    if (Files.isDirectory(dir)) return;
    try {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR_MODE));
    } catch (UnsupportedOperationException notPosix) {
      Files.createDirectories(dir);
    }
  }

  /**
   * Makes the directory 0700 and the app's entries in it 0600 (directories among them 0700, with their contents),
   * fixing a directory an earlier version made with the default umask. Files the app does not know are left as they
   * are: the directory's own mode already keeps other users out of them.
   */
  void restrict() throws IOException {
    setMode(dir, DIR_MODE);
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.startsWith(DATABASE) && !APP_FILES.contains(name)) continue;
        try (Stream<Path> tree = Files.walk(entry)) {
          for (Path p : tree.toList()) {
            if (Files.isSymbolicLink(p)) continue;
            setMode(p, Files.isDirectory(p) ? DIR_MODE : FILE_MODE);
          }
        }
      }
    }
  }

  /**
   * Removes {@code root} and everything under it (symbolic links themselves, never what they point to). What
   * disappears meanwhile is not an error: two apps starting at once may both remove what an ended run left.
   */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) return;
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        Files.deleteIfExists(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE;
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) throw e;
        Files.deleteIfExists(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Owner-only: read and write for files, and traverse too for directories (where the OS has POSIX modes). */
  static void ownerOnly(Path file) throws IOException {
    setMode(file, Files.isDirectory(file) ? DIR_MODE : FILE_MODE);
  }

  private static void setMode(Path p, Set<PosixFilePermission> mode) throws IOException {
    try {
      if (!Files.getPosixFilePermissions(p).equals(mode)) Files.setPosixFilePermissions(p, mode);
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the directory's ACL applies
    } catch (NoSuchFileException gone) {
      // a temporary file H2 removed meanwhile
    }
  }
}
