package lab.exactlyonce.enginelab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The memory this host can give a new process without swapping: Linux's {@code MemAvailable} estimate, which counts
 * reclaimable caches as well as free pages, so a host whose memory is mostly page cache is not taken for full. In a
 * container {@code /proc/meminfo} describes the whole host, so the container's own cgroup limit, less what it uses,
 * caps it (cgroup v2's {@code memory.max}, or v1's {@code memory.limit_in_bytes}).
 */
final class HostMemory {
  private static final Path MEMINFO = Path.of("/proc/meminfo");
  private static final Path CGROUP = Path.of("/sys/fs/cgroup");

  private HostMemory() {}

  /** Megabytes available, or empty where the host does not say (not Linux, or /proc unreadable). */
  static OptionalLong availableMb() {
    OptionalLong host;
    try {
      host = availableMb(Files.readAllLines(MEMINFO));
    } catch (IOException | SecurityException e) {
      return OptionalLong.empty();
    }
    OptionalLong v2 = headroomMb(read(CGROUP.resolve("memory.max")), read(CGROUP.resolve("memory.current")));
    OptionalLong v1 = headroomMb(read(CGROUP.resolve("memory/memory.limit_in_bytes")),
        read(CGROUP.resolve("memory/memory.usage_in_bytes")));
    long mb = host.orElse(Long.MAX_VALUE);
    if (v2.isPresent()) mb = Math.min(mb, v2.getAsLong());
    if (v1.isPresent()) mb = Math.min(mb, v1.getAsLong());
    return mb == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(mb);
  }

  /** Reads {@code MemAvailable:  24187816 kB} from the lines of {@code /proc/meminfo}. */
  static OptionalLong availableMb(List<String> meminfo) {
    for (String line : meminfo) {
      if (!line.startsWith("MemAvailable:")) continue;
      String[] parts = line.substring("MemAvailable:".length()).trim().split("\\s+");
      try {
        return OptionalLong.of(Long.parseLong(parts[0]) / 1024);
      } catch (NumberFormatException e) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  /**
   * A cgroup's limit less its use, in megabytes, from the files' text (bytes); empty without a limit ({@code max},
   * or v1's "no limit" of about 2^63) or without the files.
   */
  static OptionalLong headroomMb(String limit, String usage) {
    try {
      if (limit.isEmpty() || usage.isEmpty() || limit.equals("max")) return OptionalLong.empty();
      long max = Long.parseLong(limit);
      if (max >= Long.MAX_VALUE / 2) return OptionalLong.empty();
      return OptionalLong.of(Math.max(0, max - Long.parseLong(usage)) / (1024 * 1024));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException | SecurityException e) {
      return "";
    }
  }
}
