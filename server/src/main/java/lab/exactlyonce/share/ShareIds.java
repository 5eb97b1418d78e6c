package lab.exactlyonce.share;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A share's id is derived from what is stored: the SHA-256 of the snippet id and the source, in base64url, cut to
 * 12 characters. So sharing the same code for the same editor twice gives the same link, and ids follow no order.
 *
 * <p>12 characters of base64url are 72 bits. Ids cannot be enumerated: with a million shares stored, a guess finds
 * one with a chance of 10^6 / 2^72 (about 2 in 10^16), so even a client that kept the server busy answering 10,000
 * guesses a second for a year would find one with a chance of about 1 in 160. Collisions are rare too: the birthday
 * bound puts an even chance of the first one at about 2^36 (69 billion) shares. When one happens anyway, the second
 * source takes the next longer prefix (16, 22, then all 43 characters), so it is never lost or mixed up.
 */
final class ShareIds {
  private static final List<Integer> LENGTHS = List.of(12, 16, 22, 43);
  private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_-]{12,43}");

  private ShareIds() {}

  /** The ids this content may have, shortest first: it takes the first that is free or already holds it. */
  static List<String> candidates(Optional<String> snippet, String source) {
    String full = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(snippet.orElse("") + '\0' + source));
    return LENGTHS.stream().map(n -> full.substring(0, n)).toList();
  }

  /** Whether {@code text} could be an id at all (checked before the database is asked, and before it is echoed). */
  static boolean wellFormed(String text) {
    return WELL_FORMED.matcher(text).matches();
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
