package lab.exactlyonce.sandbox.engine;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The SHA-256 of a source text in lower-case hex: the key of the compile cache, of cached outputs and of checks. */
public final class SourceHash {
  private SourceHash() {
  }

  public static String of(String source) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
