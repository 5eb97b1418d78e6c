package lab.exactlyonce.learner;

import lab.exactlyonce.store.StoreException;
import lab.exactlyonce.web.Hmac;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Signs learner ids with HMAC-SHA256 so a cookie value {@code <uuid>.<key id>.<signature>} cannot be forged. The
 * 32-byte secret is generated once into {@code <data dir>/learner-cookie.key} (owner read/write only) and reused on
 * every start, so cookies survive restarts. The key id (a hash of the secret) tells a cookie made by another
 * instance on the same host (cookies ignore ports) from one that was edited: the first is ignored, the second
 * refused.
 */
final class CookieSigner {
  /** What a cookie value turned out to be. */
  enum Verdict { VALID, FOREIGN, INVALID }

  record Checked(Verdict verdict, String learnerId) {}

  static final String KEY_FILE = "learner-cookie.key";
  private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final Hmac key;
  private final String keyId;

  private CookieSigner(byte[] secret) {
    this.key = new Hmac(secret);
    this.keyId = Base64.getUrlEncoder().withoutPadding().encodeToString(key.of("key-id")).substring(0, 8);
  }

  static CookieSigner fromDataDir(Path dataDir) {
    return new CookieSigner(loadOrCreateSecret(dataDir.resolve(KEY_FILE)));
  }

  String sign(String learnerId) {
    String signed = learnerId + "." + keyId;
    return signed + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(key.of(signed));
  }

  /**
   * VALID with the learner id; FOREIGN when the cookie is well formed but names another instance's key; INVALID when
   * it is malformed or its signature does not match this key.
   */
  Checked verify(String cookieValue) {
    String[] parts = cookieValue.split("\\.", -1);
    if (parts.length != 3 || !UUID_TEXT.matcher(parts[0]).matches() || parts[1].length() != 8) {
      return new Checked(Verdict.INVALID, null);
    }
    if (!parts[1].equals(keyId)) return new Checked(Verdict.FOREIGN, null);
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      return new Checked(Verdict.INVALID, null);
    }
    boolean genuine = MessageDigest.isEqual(given, key.of(parts[0] + "." + parts[1]));
    return genuine ? new Checked(Verdict.VALID, parts[0]) : new Checked(Verdict.INVALID, null);
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
      if (secret.length < 32) {
        throw new StoreException(file + " holds a key shorter than 32 bytes; delete it to make a new one "
            + "(learners will start afresh)", null);
      }
      return secret;
    } catch (IOException e) {
      throw new StoreException("cannot read or create the learner cookie key " + file + ": " + e, e);
    } catch (IllegalArgumentException e) {
      throw new StoreException(file + " is not a base64 key; delete it to make a new one (learners will start afresh)", e);
    }
  }
}
