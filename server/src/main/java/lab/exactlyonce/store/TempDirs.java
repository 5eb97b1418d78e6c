package lab.exactlyonce.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Temporary directories that say whose they are, so that what a crashed run left behind can be removed by the next
 * one. {@link #create} makes {@code <tmp>/eolab-...} with a {@value #MARKER} file naming this process (pid and start
 * time); {@link #sweep} removes such directories whose process has ended. A directory without the marker, or whose
 * process still runs (another app, a test run), is never touched.
 */
public final class TempDirs {
  static final String MARKER = ".eolab-owner";
  static final String PREFIX = "eolab-";

  private TempDirs() {}

  /** A new directory {@code <tmp>/<prefix>...} (owner-only) marked as this process's; {@code prefix} starts "eolab-". */
  public static Path create(String prefix) throws IOException {
    if (!prefix.startsWith(PREFIX)) throw new IllegalArgumentException("a temp dir prefix starts with '" + PREFIX + "', got '" + prefix + "'");
    Path dir = Files.createTempDirectory(prefix);
    ProcessHandle self = ProcessHandle.current();
    Files.writeString(dir.resolve(MARKER), "pid=" + self.pid() + "\nstarted="
        + self.info().startInstant().map(Instant::toString).orElse("") + "\n", StandardCharsets.UTF_8);
    return dir;
  }

  /**
   * Removes {@code root} and everything under it (links themselves, never what they point to); what disappears
   * meanwhile is not an error.
   */
  public static void deleteTree(Path root) throws IOException {
    DataDirectory.deleteTree(root);
  }

  /** Removes the marked temp directories of ended processes; returns those removed. */
  public static List<Path> sweep() {
    return sweep(Path.of(System.getProperty("java.io.tmpdir")));
  }

  static List<Path> sweep(Path root) {
    List<Path> removed = new ArrayList<>();
    List<Path> candidates;
    try (Stream<Path> entries = Files.list(root)) {
      candidates = entries.filter(p -> p.getFileName().toString().startsWith(PREFIX))
          .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).toList();
    } catch (IOException e) {
      return removed;
    }
    for (Path dir : candidates) {
      Optional<Map<String, String>> owner = owner(dir.resolve(MARKER));
      if (owner.isEmpty() || alive(owner.get())) continue;
      try {
        DataDirectory.deleteTree(dir);
        removed.add(dir);
      } catch (IOException e) {
        System.err.println("cannot remove " + dir + ", left by an ended run: " + e.getMessage());
      }
    }
    return removed;
  }

  private static Optional<Map<String, String>> owner(Path marker) {
    if (!Files.isRegularFile(marker, LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
    Map<String, String> fields = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(marker, StandardCharsets.UTF_8)) {
        int eq = line.indexOf('=');
        if (eq > 0) fields.put(line.substring(0, eq), line.substring(eq + 1));
      }
      Long.parseLong(fields.getOrDefault("pid", ""));
    } catch (IOException | NumberFormatException unreadable) {
      return Optional.empty(); // not a marker this class wrote: leave the directory alone
    }
    return Optional.of(fields);
  }

  /** Whether the marked process still runs: its pid is alive and, where the OS says, started when the marker says. */
  private static boolean alive(Map<String, String> owner) {
    Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(owner.get("pid")));
    if (process.isEmpty() || !process.get().isAlive()) return false;
    String started = owner.getOrDefault("started", "");
    Optional<Instant> actual = process.get().info().startInstant();
    return started.isEmpty() || actual.isEmpty() || actual.get().toString().equals(started); // a reused pid is another process
  }
}
