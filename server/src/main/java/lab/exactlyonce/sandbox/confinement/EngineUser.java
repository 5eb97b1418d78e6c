package lab.exactlyonce.sandbox.confinement;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A name for the engines' uid where the host has none. The engines' PostgreSQL (initdb and the server both) refuses
 * to run as a uid that {@code getpwuid} cannot name; rather than asking every host to add a system user, the engines'
 * own mount namespace sees a copy of the host's {@code /etc/passwd} with one more line, and the host's file is left
 * alone.
 */
final class EngineUser {
  static final String NAME = "eolab-engines";
  private static final Path HOST_PASSWD = Path.of("/etc/passwd");

  private EngineUser() {}

  /**
   * Empty when the host already names {@code uid}; else a copy of the host's user database that also names it, written
   * in {@code dir} (readable by everyone, as {@code /etc/passwd} is).
   */
  static Optional<Path> passwdNaming(int uid, Path dir) {
    try {
      List<String> host = Files.exists(HOST_PASSWD) ? Files.readAllLines(HOST_PASSWD, StandardCharsets.UTF_8)
          : List.of();
      if (host.stream().anyMatch(line -> uidOf(line).equals(String.valueOf(uid)))) return Optional.empty();
      var lines = new ArrayList<>(host);
      lines.add(NAME + ":x:" + uid + ":" + uid + ":Exactly-Once Lab engines:/nonexistent:/usr/sbin/nologin");
      Path file = dir.resolve("passwd");
      Files.write(file, lines, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
      return Optional.of(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the engines' user database in " + dir, e);
    }
  }

  private static String uidOf(String passwdLine) {
    String[] fields = passwdLine.split(":", -1);
    return fields.length > 2 ? fields[2] : "";
  }
}
