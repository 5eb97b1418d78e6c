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
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Backs up a data directory into one zip, while the app runs or not:
 * <pre>java -cp exactly-once-lab.jar lab.exactlyonce.store.Backup --data-dir data --to backup.zip [--force]</pre>
 * The database is copied with H2's online {@code BACKUP TO} (a consistent snapshot; the app keeps serving), and the
 * files beside it (the learner-cookie key, the instructor secret) are added, so a restored app accepts the same
 * learner cookies. An existing {@code --to} file is kept unless {@code --force}. Restore with {@link Restore}.
 *
 * <p>With PostgreSQL ({@code --jdbc-url jdbc:postgresql://...}) back up the database with {@code pg_dump} and copy
 * the data directory's key files yourself (see the README).
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
      if (Files.exists(to) && !options.force()) {
        throw new CommandException(to + " already exists; choose another file or add --force to replace it");
      }
      List<Path> sideFiles = write(data, to);
      out.println("backed up " + data.path() + " to " + to + " (database + " + sideFiles.size() + " file"
          + (sideFiles.size() == 1 ? "" : "s") + ": " + String.join(", ", sideFiles.stream().map(Path::toString).toList()) + ")");
      return 0;
    } catch (CommandException e) {
      err.println("backup: " + e.getMessage());
      return 2;
    } catch (IOException | SQLException e) {
      err.println("backup failed: " + e.getMessage());
      return 2;
    }
  }

  private static List<Path> write(DataDirectory data, Path to) throws IOException, SQLException {
    Path work = Files.createTempDirectory("eolab-backup-");
    Path snapshot = work.resolve("database.zip");
    Path partial = to.resolveSibling(to.getFileName() + ".partial");
    try {
      try (Connection c = DriverManager.getConnection(DataDirectory.jdbcUrl(data.path()) + ";IFEXISTS=TRUE", "", "");
           Statement s = c.createStatement()) {
        s.execute("BACKUP TO '" + snapshot.toString().replace("'", "''") + "'");
      }
      List<Path> sideFiles = data.sideFiles();
      if (to.getParent() != null) Files.createDirectories(to.getParent());
      try (OutputStream file = Files.newOutputStream(partial); ZipOutputStream zip = new ZipOutputStream(file);
           ZipFile db = new ZipFile(snapshot.toFile())) {
        for (Enumeration<? extends ZipEntry> entries = db.entries(); entries.hasMoreElements(); ) {
          ZipEntry entry = entries.nextElement();
          zip.putNextEntry(new ZipEntry(entry.getName()));
          try (InputStream in = db.getInputStream(entry)) {
            in.transferTo(zip);
          }
          zip.closeEntry();
        }
        for (Path side : sideFiles) {
          zip.putNextEntry(new ZipEntry(side.toString().replace('\\', '/')));
          Files.copy(data.path().resolve(side), zip);
          zip.closeEntry();
        }
      }
      Files.move(partial, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return sideFiles;
    } finally {
      Files.deleteIfExists(partial);
      Files.deleteIfExists(snapshot);
      Files.deleteIfExists(work);
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
