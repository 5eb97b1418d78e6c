package lab.exactlyonce.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Restores a {@link Backup} zip into a data directory:
 * <pre>java -cp exactly-once-lab.jar lab.exactlyonce.store.Restore --data-dir data --from backup.zip [--force]</pre>
 * Refuses while an app uses that directory (it holds the directory's lock: stop it first), and refuses a non-empty directory
 * unless {@code --force}; with {@code --force} the old directory is moved aside to
 * {@code <dir>.before-restore-<time>}, never deleted. Restored files are readable by their owner only.
 */
public final class Restore {
  private Restore() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; returns the exit status (0 done, 2 refused or failed, with a one-line reason on {@code err}). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Backup.Options options = Backup.Options.parse(args, "--from", "Restore");
      Path from = options.file().toAbsolutePath().normalize();
      DataDirectory data = new DataDirectory(options.dataDir());
      if (!Files.isRegularFile(from)) throw new Backup.CommandException("no backup file " + from);
      var holder = InstanceLock.heldBy(data.path());
      if (holder.isPresent()) {
        throw new Backup.CommandException("the data dir " + options.dataDir() + " is in use by " + holder.get()
            + "; stop it before restoring into its data directory");
      }
      Path movedAside = null;
      if (!data.isEmpty()) {
        if (!options.force()) {
          throw new Backup.CommandException(data.path() + " is not empty; restore into an empty directory, or add "
              + "--force to move the current contents aside first");
        }
        movedAside = data.path().resolveSibling(data.path().getFileName() + ".before-restore-"
            + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        Files.move(data.path(), movedAside);
      }
      List<String> restored = extract(from, data.path());
      out.println("restored " + from + " into " + data.path() + " (" + String.join(", ", restored) + ")"
          + (movedAside == null ? "" : "; the previous contents are in " + movedAside));
      return 0;
    } catch (Backup.CommandException e) {
      err.println("restore: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      err.println("restore failed: " + e.getMessage());
      return 2;
    }
  }

  private static List<String> extract(Path from, Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipFile zip = new ZipFile(from.toFile())) {
      if (zip.getEntry(DataDirectory.DATABASE_FILE) == null) {
        throw new Backup.CommandException(from + " is not a backup of this app: it holds no " + DataDirectory.DATABASE_FILE);
      }
      new DataDirectory(dir).create();
      for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
        ZipEntry entry = entries.nextElement();
        if (entry.isDirectory()) continue;
        Path target = dir.resolve(entry.getName()).normalize();
        if (!target.startsWith(dir)) {
          throw new Backup.CommandException(from + " holds a path outside the data directory: " + entry.getName());
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, target);
        }
        ownerOnly(target);
        names.add(entry.getName());
      }
    }
    return names;
  }

  private static void ownerOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the directory's ACL applies
    }
  }
}
