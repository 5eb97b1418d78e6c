package lab.exactlyonce.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One process per data directory: an OS lock on {@value #FILE}, held for as long as the app (or the backup command)
 * uses the directory, and the holder's pid, port and start time written in it for the next one to name. The OS drops
 * the lock when the process ends, even by {@code kill -9}, so what an ended process left in the file never blocks a
 * start: only a live lock does.
 */
final class InstanceLock implements AutoCloseable {
  static final String FILE = "eolab.instance";

  private final FileChannel channel;
  private final FileLock lock;
  private final Map<String, String> fields = new LinkedHashMap<>();

  private InstanceLock(FileChannel channel, FileLock lock, String what) throws IOException {
    this.channel = channel;
    this.lock = lock;
    fields.put("what", what);
    fields.put("pid", Long.toString(ProcessHandle.current().pid()));
    fields.put("started", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    write();
  }

  /**
   * Takes the lock of {@code dir} for {@code what} ("app" or the name of a command).
   *
   * @param shown the directory as the operator named it, for the refusal
   * @throws StoreException "the data dir ... is in use by ..." when a live process holds it
   */
  static InstanceLock acquire(Path dir, String shown, String what) {
    Path file = dir.resolve(FILE);
    FileChannel channel = null;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      DataDirectory.ownerOnly(file);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException sameProcess) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        throw new StoreException(inUse(shown, holder(file).orElse("another process")), null);
      }
      return new InstanceLock(channel, lock, what);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StoreException("cannot lock the data dir " + shown + " (" + file + "): " + e.getMessage(), e);
    }
  }

  /** Who holds the lock of {@code dir}, if anyone does: "another Exactly-Once Lab (pid 1234, port 7070, started ...)". */
  static Optional<String> heldBy(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) return Optional.empty();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        lock.release();
        return Optional.empty();
      }
    } catch (OverlappingFileLockException sameProcess) {
      // held by this JVM
    }
    return Optional.of(holder(file).orElse("another process"));
  }

  static String inUse(String shown, String holder) {
    return "the data dir " + shown + " is in use by " + holder + "; stop it or use another --data-dir";
  }

  /** Records the port the app serves on, for the refusal a second start gets. */
  void serving(int port) {
    fields.put("port", Integer.toString(port));
    try {
      write();
    } catch (IOException e) {
      // only the refusal's wording depends on it; the lock itself holds
    }
  }

  private void write() throws IOException {
    StringBuilder text = new StringBuilder();
    fields.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    channel.truncate(0);
    channel.write(ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)), 0);
    channel.force(false);
  }

  private static Optional<String> holder(Path file) {
    Map<String, String> f = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (eq > 0) f.put(line.substring(0, eq), line.substring(eq + 1));
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    if (!f.containsKey("pid")) return Optional.empty();
    String what = f.getOrDefault("what", "app");
    String who = what.equals("app") ? "another Exactly-Once Lab" : "the Exactly-Once Lab " + what + " command";
    String port = what.equals("app") ? ", port " + f.getOrDefault("port", "not open yet") : "";
    return Optional.of(who + " (pid " + f.get("pid") + port + ", started " + f.getOrDefault("started", "?") + ")");
  }

  @Override
  public void close() {
    try {
      if (lock.isValid()) lock.release();
    } catch (IOException e) {
      // the channel's close below drops the lock too
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) return;
    try {
      channel.close();
    } catch (IOException ignored) {
      // nothing held any more
    }
  }
}
