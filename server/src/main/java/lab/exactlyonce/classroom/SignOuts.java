package lab.exactlyonce.classroom;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * The instructor sessions that were signed out, by nonce, until they would have expired anyway: kept in a file of
 * the data directory ({@code <nonce> <expiry epoch seconds>} a line, owner-only), so a restart does not bring a
 * signed-out cookie back. Expired entries are dropped when the file is read and when it is rewritten.
 */
final class SignOuts {
  private final Path file;
  private final Clock clock;
  private final Map<String, Long> expiries = new HashMap<>();

  SignOuts(Path file, Clock clock) {
    this.file = file;
    this.clock = clock;
    if (Files.exists(file)) {
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          String[] parts = line.strip().split(" ");
          if (parts.length != 2) continue;
          try {
            expiries.put(parts[0], Long.parseLong(parts[1]));
          } catch (NumberFormatException ignored) {
            // a damaged line revokes nothing; the rest still count
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the signed-out instructor sessions " + file, e);
      }
      prune();
    }
  }

  synchronized boolean contains(String nonce) {
    Long expiry = expiries.get(nonce);
    return expiry != null && expiry > clock.instant().getEpochSecond();
  }

  synchronized void add(String nonce, long expiryEpochSeconds) {
    expiries.put(nonce, expiryEpochSeconds);
    prune();
    StringBuilder text = new StringBuilder();
    expiries.forEach((n, e) -> text.append(n).append(' ').append(e).append('\n'));
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(tmp);
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      Files.writeString(tmp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the sign-out in " + file, e);
    }
  }

  private void prune() {
    long now = clock.instant().getEpochSecond();
    expiries.values().removeIf(expiry -> expiry <= now);
  }
}
