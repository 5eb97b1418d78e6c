package lab.exactlyonce.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Enumeration;
import java.util.List;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Backs up a data directory into one zip, while the app runs or not:
 * <pre>java -cp exactly-once-lab.jar lab.exactlyonce.store.Backup --data-dir data --to backup.zip [--force]</pre>
 * The database is copied with H2's online {@code BACKUP TO} while no transaction commits ({@link Database#alone}),
 * and the files beside it (the learner-cookie key, the instructor secret, the database password) are added, so a
 * restored app accepts the same learner cookies. While the app runs, the command asks it for the backup over the
 * data directory's local socket ({@link BackupChannel}; the app keeps serving, its writes waiting out the copy); when
 * it does not, the command opens the database itself, holding the directory's lock meanwhile so that the app cannot
 * start halfway. The zip is readable by its owner only. An existing {@code --to} file is kept unless {@code --force}.
 * Restore with {@link Restore}.
 *
 * <p>With PostgreSQL ({@code --jdbc-url jdbc:postgresql://...}) back up the database with {@code pg_dump} and copy
 * the data directory's key files yourself (see docs/operations.md).
 */
public final class Backup {
  private Backup() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status (0 done, 2 refused or failed, with a one-line reason on {@code err}). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Options options = Options.parse(args, "--to", "Backup");
      Path to = options.file().toAbsolutePath().normalize();
      DataDirectory data = new DataDirectory(options.dataDir());
      if (!Files.exists(data.databaseFile())) {
        throw new CommandException("no database in " + data.path() + " (expected " + DataDirectory.DATABASE_FILE + ")");
      }
      if (to.startsWith(data.path())) {
        throw new CommandException(to + " is inside the data dir " + data.path() + "; write the backup outside it (one "
            + "inside would be copied into every later backup)");
      }
      if (Files.exists(to) && !options.force()) {
        throw new CommandException(to + " already exists; choose another file or add --force to replace it");
      }
      if (to.getParent() != null) Files.createDirectories(to.getParent());
      Path partial = to.resolveSibling(to.getFileName() + ".partial");
      List<String> sideFiles;
      String how;
      try {
        Files.deleteIfExists(partial);
        Files.createFile(partial);
        DataDirectory.ownerOnly(partial);
        if (InstanceLock.heldBy(data.path()).isPresent()) {
          sideFiles = fromRunningApp(data, options.dataDir().toString(), partial);
          how = "from the running app";
        } else {
          try (InstanceLock lock = InstanceLock.acquire(data.path(), options.dataDir().toString(), "backup")) {
            sideFiles = offline(data, partial).stream().map(Path::toString).toList();
          }
          how = "the app was not running";
        }
        Files.move(partial, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(partial);
      }
      out.println("backed up " + data.path() + " to " + to + " (" + how + "; database + " + sideFiles.size() + " file"
          + (sideFiles.size() == 1 ? "" : "s") + ": " + String.join(", ", sideFiles) + ")");
      return 0;
    } catch (CommandException e) {
      err.println("backup: " + e.getMessage());
      return 2;
    } catch (StoreException e) {
      err.println("backup: " + e.getMessage());
      return 2;
    } catch (IOException | SQLException e) {
      err.println("backup failed: " + e.getMessage());
      return 2;
    }
  }

  private static List<String> fromRunningApp(DataDirectory data, String shown, Path partial) throws IOException {
    if (!Files.exists(data.path().resolve(BackupChannel.SOCKET))) {
      throw new CommandException(InstanceLock.heldBy(data.path()).orElse("another process") + " holds " + shown
          + " but offers no backup socket (" + BackupChannel.SOCKET + "); stop it, then run this command again");
    }
    return BackupChannel.request(data, DatabasePassword.current(data), partial).sideFiles();
  }

  private static List<Path> offline(DataDirectory data, Path zip) throws IOException, SQLException {
    String url = DataDirectory.jdbcUrl(data.path()) + ";IFEXISTS=TRUE";
    try (Connection c = DriverManager.getConnection(url, DatabasePassword.USER, DatabasePassword.current(data))) {
      return write(c, data, zip);
    }
  }

  /**
   * Writes the backup zip of {@code data} to {@code zip} through {@code c}, a connection to its database: H2's
   * snapshot of the database, then the side files. Returns the side files.
   */
  static List<Path> write(Connection c, DataDirectory data, Path zip) throws IOException, SQLException {
    Path work = data.path().resolve(DataDirectory.BACKUP_WORK_PREFIX + UUID.randomUUID());
    Files.createDirectory(work);
    DataDirectory.ownerOnly(work);
    try {
      Path snapshot = work.resolve("database.zip");
      try (Statement s = c.createStatement()) {
        s.execute("BACKUP TO '" + snapshot.toString().replace("'", "''") + "'");
      }
      List<Path> sideFiles = data.sideFiles();
      try (OutputStream file = Files.newOutputStream(zip); ZipOutputStream out = new ZipOutputStream(file);
           ZipFile db = new ZipFile(snapshot.toFile())) {
        for (Enumeration<? extends ZipEntry> entries = db.entries(); entries.hasMoreElements(); ) {
          ZipEntry entry = entries.nextElement();
          out.putNextEntry(new ZipEntry(entry.getName()));
          try (InputStream in = db.getInputStream(entry)) {
            in.transferTo(out);
          }
          out.closeEntry();
        }
        for (Path side : sideFiles) {
          out.putNextEntry(new ZipEntry(side.toString().replace('\\', '/')));
          Files.copy(data.path().resolve(side), out);
          out.closeEntry();
        }
      }
      return sideFiles;
    } finally {
      DataDirectory.deleteTree(work);
    }
  }

  /** The command's options: {@code --data-dir DIR}, the file option, and {@code --force}. */
  record Options(Path dataDir, Path file, boolean force) {
    static Options parse(String[] args, String fileFlag, String command) {
      Path dataDir = null;
      Path file = null;
      boolean force = false;
      String usage = "usage: java -cp exactly-once-lab.jar lab.exactlyonce.store." + command + " --data-dir DIR "
          + fileFlag + " FILE.zip [--force]";
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        if (arg.equals("--force")) {
          force = true;
        } else if (arg.equals("--data-dir") || arg.equals(fileFlag)) {
          if (i + 1 >= args.length) throw new CommandException("option '" + arg + "' needs a value; " + usage);
          Path value = Path.of(args[++i]);
          if (arg.equals("--data-dir")) dataDir = value;
          else file = value;
        } else {
          throw new CommandException("unknown option '" + arg + "'; " + usage);
        }
      }
      if (dataDir == null || file == null) throw new CommandException(usage);
      return new Options(dataDir, file, force);
    }
  }

  /** A refusal or a usage mistake, reported as one line. */
  static final class CommandException extends RuntimeException {
    CommandException(String message) {
      super(message);
    }
  }
}
