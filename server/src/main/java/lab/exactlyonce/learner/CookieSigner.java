package lab.exactlyonce.learner;

import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.SigningKeys;
import lab.exactlyonce.store.StoreException;
import lab.exactlyonce.web.Hmac;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Signs learner ids with HMAC-SHA256 so a cookie value {@code <uuid>.<key id>.<signature>} cannot be forged. The keys
 * are the database's {@code learner-cookie} {@link SigningKeys}, so every node on one database accepts every other's
 * cookies and a rotation logs nobody out. The first key is the 32-byte secret generated once into
 * {@code <data dir>/learner-cookie.key} (owner read/write only), which the embedded database's backups carry along.
 * The key id (a hash of the secret) picks the key that verifies, and tells a cookie made by another instance on the
 * same host (cookies ignore ports) from one that was edited: the first is ignored, the second refused.
 */
final class CookieSigner {
  /** What a cookie value turned out to be. */
  enum Verdict { VALID, FOREIGN, INVALID }

  /**
   * @param signedByOldKey a valid cookie signed by a key older than the one signing now: sign it again, so that the
   *     learner keeps their id through the next rotation too
   */
  record Checked(Verdict verdict, String learnerId, boolean signedByOldKey) {
    Checked(Verdict verdict, String learnerId) {
      this(verdict, learnerId, false);
    }
  }

  static final String KEY_FILE = "learner-cookie.key";
  static final String PURPOSE = "learner-cookie";
  private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private final SigningKeys keys;

  private CookieSigner(SigningKeys keys) {
    this.keys = keys;
  }

  static CookieSigner load(Database db, Path dataDir, Clock clock) {
    return new CookieSigner(SigningKeys.load(db, PURPOSE, clock, () -> loadOrCreateSecret(dataDir.resolve(KEY_FILE))));
  }

  private static String keyId(Hmac key) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(key.of("key-id")).substring(0, 8);
  }

  String sign(String learnerId) {
    Hmac key = new Hmac(keys.current().secret());
    String signed = learnerId + "." + keyId(key);
    return signed + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(key.of(signed));
  }

  /**
   * VALID with the learner id; FOREIGN when the cookie is well formed but names a key this database does not have
   * (another instance's, or one rotated out); INVALID when it is malformed or its signature does not match its key.
   */
  Checked verify(String cookieValue) {
    String[] parts = cookieValue.split("\\.", -1);
    if (parts.length != 3 || !UUID_TEXT.matcher(parts[0]).matches() || parts[1].length() != 8) {
      return new Checked(Verdict.INVALID, null);
    }
    Optional<SigningKeys.Key> key = keyNamed(parts[1]);
    if (key.isEmpty() && keys.refreshIfStale()) key = keyNamed(parts[1]); // rotated on another node just now?
    if (key.isEmpty()) return new Checked(Verdict.FOREIGN, null);
    byte[] given;
    try {
      given = Base64.getUrlDecoder().decode(parts[2]);
    } catch (IllegalArgumentException e) {
      return new Checked(Verdict.INVALID, null);
    }
    boolean genuine = MessageDigest.isEqual(given, new Hmac(key.get().secret()).of(parts[0] + "." + parts[1]));
    if (!genuine) return new Checked(Verdict.INVALID, null);
    // only an older key's cookie is signed anew: one signed by a newer key than this node's signing one (another
    // node switched a moment earlier) is left as it is
    return new Checked(Verdict.VALID, parts[0], key.get().generation() < keys.current().generation());
  }

  private Optional<SigningKeys.Key> keyNamed(String keyId) {
    for (SigningKeys.Key k : keys.verifying()) {
      if (keyId(new Hmac(k.secret())).equals(keyId)) return Optional.of(k);
    }
    return Optional.empty();
  }

  private static byte[] loadOrCreateSecret(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (!Files.exists(file)) {
        byte[] secret = SigningKeys.randomSecret();
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
