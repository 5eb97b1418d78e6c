package lab.exactlyonce.share;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * A share's id: 12 base64url characters of a secure random number (72 bits), nothing derived from the code, so an id
 * tells nothing about what it holds and nobody can test whether a program they guess was shared.
 *
 * <p>Ids cannot be enumerated: with a million shares stored, a guess finds one with a chance of 10^6 / 2^72 (about 2
 * in 10^16), so even a client that kept the server busy answering 10,000 guesses a second for a year would find one
 * with a chance of about 1 in 160. Links made before ids were random (a hash of the code, 12 to 43 characters) keep
 * working.
 */
final class ShareIds {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_-]{12,43}");

  private ShareIds() {}

  static String random() {
    byte[] bytes = new byte[9];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Whether {@code text} could be an id at all (checked before the database is asked, and before it is echoed). */
  static boolean wellFormed(String text) {
    return WELL_FORMED.matcher(text).matches();
  }
}
