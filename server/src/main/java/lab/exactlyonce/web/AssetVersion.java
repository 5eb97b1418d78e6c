package lab.exactlyonce.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The fingerprint of the app's static files ({@code web/} on the class path): a hash of every file's path and bytes.
 * Pages name their assets under {@code /assets/v/<fingerprint>/}, which the server sends as immutable, so a repeat
 * visit revalidates only the page; any change to any file makes a new fingerprint and new URLs. The scripts import
 * each other by relative paths, so a module graph stays under one fingerprint.
 */
public final class AssetVersion {
  /** The class path directory the assets are served from. */
  public static final String DIRECTORY = "/web";
  /** The fingerprint of this build's assets. */
  public static final String CURRENT = of(DIRECTORY);
  /** Where the fingerprinted assets are served. */
  public static final String PATH = "/assets/v/" + CURRENT;

  private AssetVersion() {
  }

  /** The URL of an asset, such as {@code js/tabs.js}, under this build's fingerprint. */
  public static String url(String asset) {
    return PATH + "/" + asset;
  }

  static String of(String directory) {
    URL url = AssetVersion.class.getResource(directory);
    if (url == null) throw new IllegalStateException("no " + directory + " on the class path");
    try {
      URI uri = url.toURI();
      if (!uri.getScheme().equals("jar")) return hash(Path.of(uri));
      FileSystem jar;
      boolean opened = false;
      try {
        jar = FileSystems.newFileSystem(uri, Map.of());
        opened = true;
      } catch (FileSystemAlreadyExistsException e) {
        jar = FileSystems.getFileSystem(uri);
      }
      try {
        return hash(jar.getPath(directory));
      } finally {
        if (opened) jar.close();
      }
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot read " + url, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the assets at " + url, e);
    }
  }

  private static String hash(Path root) throws IOException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path file : files) {
      sha.update(root.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(Files.readAllBytes(file));
    }
    return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
  }
}
