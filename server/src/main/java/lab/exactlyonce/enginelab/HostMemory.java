package lab.exactlyonce.enginelab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The memory this host can give a new process without swapping: Linux's {@code MemAvailable} estimate, which counts
 * reclaimable caches as well as free pages, so a host whose memory is mostly page cache is not taken for full.
 */
final class HostMemory {
  private static final Path MEMINFO = Path.of("/proc/meminfo");

  private HostMemory() {}

  /** Megabytes available, or empty where the host does not say (not Linux, or /proc unreadable). */
  static OptionalLong availableMb() {
    try {
      return availableMb(Files.readAllLines(MEMINFO));
    } catch (IOException | SecurityException e) {
      return OptionalLong.empty();
    }
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
}
