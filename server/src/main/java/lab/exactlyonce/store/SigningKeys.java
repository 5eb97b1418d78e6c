package lab.exactlyonce.store;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;

/**
 * The secret keys of one purpose (such as signing learner cookies), kept in the database so every node on it signs
 * and verifies alike. The newest generation signs; it and the one before verify, so {@link #rotate} logs nobody out
 * (a cookie signed with the key before that is no longer accepted). A node reads the keys at start and again at most
 * every {@link #REFRESH} when asked about a key it does not know, so a rotation on one node reaches the others
 * without a restart.
 */
public final class SigningKeys {
  /** How often a node may re-read the keys when it meets one it does not know. */
  public static final Duration REFRESH = Duration.ofSeconds(5);
  private static final int SECRET_BYTES = 32;

  /** A key: its generation and its secret bytes. */
  public record Key(int generation, byte[] secret) {}

  private final Database db;
  private final String purpose;
  private final Clock clock;
  private volatile List<Key> keys;
  private volatile Instant readAt;

  private SigningKeys(Database db, String purpose, Clock clock) {
    this.db = db;
    this.purpose = purpose;
    this.clock = clock;
  }

  /**
   * The keys of {@code purpose}. When the database has none yet, {@code first} makes the first one (a node that
   * had a key of its own before, in its data directory, brings it along so its cookies stay valid); when two nodes
   * start at once, the one that stores its key first wins and the other uses it.
   */
  public static SigningKeys load(Database db, String purpose, Clock clock, Supplier<byte[]> first) {
    SigningKeys keys = new SigningKeys(db, purpose, clock);
    if (keys.read().isEmpty()) {
      keys.insert(1, first.get());
      keys.read();
    }
    return keys;
  }

  /** A fresh random secret of the size the keys use. */
  public static byte[] randomSecret() {
    byte[] secret = new byte[SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    return secret;
  }

  /** The key that signs now. */
  public Key current() {
    return keys.get(0);
  }

  /** The keys that verify, newest first: the current one and the one before it (if any). */
  public List<Key> verifying() {
    return keys;
  }

  /** Reads the keys again unless that was done less than {@link #REFRESH} ago; whether it read them. */
  public boolean refreshIfStale() {
    if (Duration.between(readAt, clock.instant()).compareTo(REFRESH) < 0) return false;
    read();
    return true;
  }

  /** Makes a new key the signing one; the one that signed until now still verifies. */
  public void rotate() {
    insert(current().generation() + 1, randomSecret());
    read();
  }

  private void insert(int generation, byte[] secret) {
    try {
      db.inTransaction(c -> Sql.update(c, "INSERT INTO signing_keys (purpose, generation, secret, created_at) VALUES (?, ?, ?, ?)",
          purpose, generation, Base64.getEncoder().encodeToString(secret), clock.instant()));
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e; // another node made this generation at the same moment: theirs counts
    }
  }

  private List<Key> read() {
    List<Key> read = db.inTransaction(c -> Sql.list(c,
        "SELECT generation, secret FROM signing_keys WHERE purpose = ? ORDER BY generation DESC",
        rs -> new Key(rs.getInt(1), Base64.getDecoder().decode(rs.getString(2))), purpose));
    if (!read.isEmpty()) keys = List.copyOf(read.subList(0, Math.min(2, read.size())));
    readAt = clock.instant();
    return read;
  }
}
