package lab.exactlyonce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a content folder (lessons, snippets): the configured directory, or else the copy bundled on the class
 * path, which inside the runnable jar is read through the jar's own file system. Either way callers get a
 * {@link Path} and read it the same way.
 */
public final class ContentFolder {
  private ContentFolder() {}

  public static Path resolve(Optional<Path> configured, String bundledName) {
    return configured.orElseGet(() -> bundled(bundledName));
  }

  static Path bundled(String name) {
    URL url = ContentFolder.class.getResource("/" + name);
    if (url == null) throw new IllegalStateException("no bundled '" + name + "' folder on the class path");
    try {
      URI uri = url.toURI();
      if (!"jar".equals(uri.getScheme())) return Path.of(uri);
      try {
        return FileSystems.newFileSystem(uri, Map.of()).provider().getPath(uri);
      } catch (FileSystemAlreadyExistsException e) {
        return FileSystems.getFileSystem(uri).provider().getPath(uri);
      }
    } catch (URISyntaxException e) {
      throw new IllegalStateException("bad class path URL " + url, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
