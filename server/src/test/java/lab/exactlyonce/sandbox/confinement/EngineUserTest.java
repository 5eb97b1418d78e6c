package lab.exactlyonce.sandbox.confinement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EngineUserTest {
  @TempDir
  Path dir;

  @Test
  void a_uid_the_host_already_names_keeps_the_hosts_user_database() {
    assertEquals(Optional.empty(), EngineUser.passwdNaming(0, dir));
  }

  @Test
  void a_uid_without_a_name_gets_a_copy_of_the_hosts_database_with_one_line_more() throws Exception {
    int unnamed = 65_987;
    List<String> host = Files.readAllLines(Path.of("/etc/passwd"), StandardCharsets.UTF_8);
    Path file = EngineUser.passwdNaming(unnamed, dir).orElseThrow();

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(host, lines.subList(0, lines.size() - 1), "the host's lines, unchanged");
    assertEquals("eolab-engines:x:65987:65987:Exactly-Once Lab engines:/nonexistent:/usr/sbin/nologin",
        lines.get(lines.size() - 1));
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
  }
}
