package lab.exactlyonce.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the browser finds the WebJars the pages use. The version is the one on the class path, read from the jar's
 * {@code pom.properties}, so pom.xml is the only place that names it.
 */
final class WebJars {
  /** The CodeMirror 5 folder, such as {@code /webjars/codemirror/5.65.21/}; empty if the jar is missing. */
  static final Optional<String> CODEMIRROR = base("org.webjars.npm", "codemirror");

  private WebJars() {}

  static Optional<String> base(String group, String artifact) {
    String path = "/META-INF/maven/" + group + "/" + artifact + "/pom.properties";
    try (InputStream in = WebJars.class.getResourceAsStream(path)) {
      if (in == null) return Optional.empty();
      var properties = new Properties();
      properties.load(in);
      return Optional.ofNullable(properties.getProperty("version")).map(v -> "/webjars/" + artifact + "/" + v + "/");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + path, e);
    }
  }
}
