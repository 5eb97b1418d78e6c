package lab.exactlyonce.store;

import lab.exactlyonce.web.Hmac;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Seals the live messages nodes send each other over PostgreSQL {@code NOTIFY}, and opens only what another node
 * sealed. Any role that may connect to the database can {@code NOTIFY} (it needs no privilege) and {@code LISTEN}, so
 * a message counts only when it carries an HMAC under the nodes' {@code live-signals} {@link SigningKeys} (kept in a
 * table such a role cannot read), was sealed within {@link #FRESH} of now, and was not heard before: a forged
 * message, an old one replayed, and one replayed at once are all refused.
 *
 * <p>A sealed message reads {@code <key generation>.<sent at, epoch ms>.<signature>.<message>}.
 */
final class SignalSeal {
  static final String PURPOSE = "live-signals";
  /** How far a message's time may be from the receiver's: the nodes' clocks may differ a little, delivery is prompt. */
  static final Duration FRESH = Duration.ofSeconds(30);
  /** Seals heard within {@link #FRESH}, to refuse one heard twice; far more than nodes send in that time. */
  private static final int REMEMBERED = 50_000;

  private final SigningKeys keys;
  private final Clock clock;
  /** Signature to the time it stops being fresh, oldest first. */
  private final LinkedHashMap<String, Long> heard = new LinkedHashMap<>();

  SignalSeal(SigningKeys keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  static SignalSeal load(Database db, Clock clock) {
    return new SignalSeal(SigningKeys.load(db, PURPOSE, clock, SigningKeys::randomSecret), clock);
  }

  String seal(String message) {
    SigningKeys.Key key = keys.current();
    String head = key.generation() + "." + clock.millis();
    return head + "." + signature(key, head, message) + "." + message;
  }

  /** The message {@code sealed} carries, or empty when it was not sealed by a node, is stale, or was heard before. */
  synchronized Optional<String> open(String sealed) {
    String[] parts = sealed.split("\\.", 4);
    if (parts.length != 4) return Optional.empty();
    int generation;
    long sentAt;
    try {
      generation = Integer.parseInt(parts[0]);
      sentAt = Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    long now = clock.millis();
    if (Math.abs(now - sentAt) > FRESH.toMillis()) return Optional.empty();
    Optional<SigningKeys.Key> key = generation(generation);
    if (key.isEmpty() && keys.refreshIfStale()) key = generation(generation); // rotated just now
    if (key.isEmpty()) return Optional.empty();
    String head = parts[0] + "." + parts[1];
    byte[] expected = signature(key.get(), head, parts[3]).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, parts[2].getBytes(StandardCharsets.US_ASCII))) return Optional.empty();
    forgetStale(now);
    if (heard.putIfAbsent(parts[2], sentAt + FRESH.toMillis()) != null) return Optional.empty();
    return Optional.of(parts[3]);
  }

  private Optional<SigningKeys.Key> generation(int generation) {
    return keys.verifying().stream().filter(k -> k.generation() == generation).findFirst();
  }

  private void forgetStale(long now) {
    Iterator<Map.Entry<String, Long>> oldest = heard.entrySet().iterator();
    while (oldest.hasNext()) {
      Map.Entry<String, Long> e = oldest.next();
      if (e.getValue() >= now && heard.size() < REMEMBERED) break;
      oldest.remove();
    }
  }

  private static String signature(SigningKeys.Key key, String head, String message) {
    byte[] mac = new Hmac(key.secret()).of("exactly-once-lab live signal v1\n" + head + "\n" + message);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
  }
}
