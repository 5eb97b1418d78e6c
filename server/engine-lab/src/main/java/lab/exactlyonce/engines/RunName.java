package lab.exactlyonce.engines;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The part every topic name and transactional-id prefix of one run shares: 128 random bits, so that nobody who can
 * reach a broker (before it was confined, every local account could) can create a later run's topics or
 * transactional ids in advance and make that run fail. A run counter was guessable; so would be a clock.
 */
final class RunName {
  private static final SecureRandom RANDOM = new SecureRandom();

  private RunName() {
  }

  /** A fresh name: 32 hex digits, legal in Kafka topic names and transactional ids. */
  static String next() {
    byte[] bits = new byte[16];
    RANDOM.nextBytes(bits);
    return HexFormat.of().formatHex(bits);
  }
}
