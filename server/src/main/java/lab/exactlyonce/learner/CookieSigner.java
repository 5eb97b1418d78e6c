package lab.exactlyonce.learner;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Signs learner ids with HMAC-SHA256 so a cookie value {@code <uuid>.<signature>} cannot be forged. The 32-byte
 * secret is generated once into {@code <data dir>/learner-cookie.key} (owner read/write only) and reused on every
 * start, so cookies survive restarts.
 */
final class CookieSigner {
  static final String KEY_FILE = "learner-cookie.key";
  private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final SecretKeySpec key;

  private CookieSigner(byte[] secret) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  static CookieSigner fromDataDir(Path dataDir) {
    return new CookieSigner(loadOrCreateSecret(dataDir.resolve(KEY_FILE)));
  }

  String sign(String learnerId) {
    return learnerId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(mac(learnerId));
  }

  /** The learner id in a cookie value, or empty if the value was not signed by this secret or is malformed. */
  Optional<String> verify(String cookieValue) {
    int dot = cookieValue.indexOf('.');
    if (dot < 0) return Optional.empty();
    String id = cookieValue.substring(0, dot);
    if (!UUID_TEXT.matcher(id).matches()) return Optional.empty();
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(cookieValue.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return MessageDigest.isEqual(given, mac(id)) ? Optional.of(id) : Optional.empty();
  }

  private byte[] mac(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static byte[] loadOrCreateSecret(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (!Files.exists(file)) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        try {
          if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
          } else {
            Files.createFile(file);
          }
          Files.writeString(file, Base64.getEncoder().encodeToString(secret) + "\n");
          return secret;
        } catch (FileAlreadyExistsException raced) {
          // another app on the same data dir wrote it first: use theirs
        }
      }
      byte[] secret = Base64.getDecoder().decode(Files.readString(file).strip());
      if (secret.length < 32) throw new IllegalStateException(file + " holds a key shorter than 32 bytes; delete it to make a new one");
      return secret;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the cookie key " + file, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(file + " is not a base64 key; delete it to make a new one (learners will start afresh)", e);
    }
  }
}
