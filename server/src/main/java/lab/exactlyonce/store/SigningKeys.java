package lab.exactlyonce.store;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
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

  /**
   * How long after a rotation on a shared database the new key starts signing: twice {@link #REFRESH}, so that every
   * node has read it (and its clock may be a few seconds off) before any node's cookies carry it.
   */
  public static final Duration SIGNING_DELAY = REFRESH.multipliedBy(2);

  /** A key: its generation, its secret bytes, and from when it signs (until then it only verifies). */
  public record Key(int generation, byte[] secret, Instant signsFrom) {}

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
      keys.insert(1, first.get(), clock.instant());
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

  /**
   * The key that signs now. Read again at most every {@link #REFRESH}, so a node switches to a key rotated by the
   * command (or by another node) within that time.
   */
  public Key current() {
    refreshIfStale();
    Instant now = clock.instant();
    for (Key key : keys) if (!key.signsFrom().isAfter(now)) return key;
    return keys.get(keys.size() - 1);
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

  /**
   * Makes a new key, which verifies at once and signs after {@code signingDelay} ({@link #SIGNING_DELAY} where other
   * nodes share the database, zero where none can); the one that signed until now still verifies, the one before
   * it no longer does. Answers the new key's generation.
   */
  public int rotate(Duration signingDelay) {
    read();
    insert(keys.get(0).generation() + 1, randomSecret(), clock.instant().plus(signingDelay));
    read();
    return keys.get(0).generation();
  }

  /** The purposes that have keys in the database (such as {@code learner-cookie}), in name order. */
  public static List<String> purposes(Database db) {
    return db.inTransaction(c -> Sql.list(c, "SELECT DISTINCT purpose FROM signing_keys ORDER BY purpose",
        rs -> rs.getString(1)));
  }

  /** The keys of a purpose already in the database, without making one. */
  public static SigningKeys existing(Database db, String purpose, Clock clock) {
    SigningKeys keys = new SigningKeys(db, purpose, clock);
    if (keys.read().isEmpty()) throw new StoreException("the database has no " + purpose + " keys", null);
    return keys;
  }

  private void insert(int generation, byte[] secret, Instant signsFrom) {
    try {
      db.inTransaction(c -> Sql.update(c, "INSERT INTO signing_keys (purpose, generation, secret, created_at, signs_from)"
              + " VALUES (?, ?, ?, ?, ?)", purpose, generation, Base64.getEncoder().encodeToString(secret),
          clock.instant().atOffset(ZoneOffset.UTC), signsFrom.atOffset(ZoneOffset.UTC)));
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e; // another node made this generation at the same moment: theirs counts
    }
  }

  private List<Key> read() {
    List<Key> read = db.inTransaction(c -> Sql.list(c,
        "SELECT generation, secret, signs_from FROM signing_keys WHERE purpose = ? ORDER BY generation DESC",
        rs -> new Key(rs.getInt(1), Base64.getDecoder().decode(rs.getString(2)),
            rs.getObject(3, OffsetDateTime.class).toInstant()), purpose));
    if (!read.isEmpty()) keys = List.copyOf(read.subList(0, Math.min(2, read.size())));
    readAt = clock.instant();
    return read;
  }
}
