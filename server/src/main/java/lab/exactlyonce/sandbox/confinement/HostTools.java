package lab.exactlyonce.sandbox.confinement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The programs the launchers chain, by absolute path (the workers' environment is cleared, so nothing is looked up
 * on a PATH later). A path that does not exist makes the launchers that need it fail their probe, which is how a
 * test hands the self-check a host where only weaker launchers work.
 */
public record HostTools(Path shell, Path bwrap, Path setpriv, Path unshare) {
  private static final List<String> DIRS = List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin");

  /** The tools as installed here; a missing one keeps the name under /usr/bin (and its launchers fail). */
  public static HostTools installed() {
    return new HostTools(find("sh"), find("bwrap"), find("setpriv"), find("unshare"));
  }

  public HostTools withBwrap(Path path) {
    return new HostTools(shell, path, setpriv, unshare);
  }

  public static Path find(String name) {
    for (String dir : DIRS) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) return candidate;
    }
    return Path.of("/usr/bin", name);
  }
}
