package lab.exactlyonce.classroom;

/**
 * A rough, conservative estimate of how hard an instructor secret is to guess: its length times the bits of the
 * character classes it uses, where a character that repeats or continues a run of the one before it
 * ({@code aaaa}, {@code 1234}, {@code abcd}) counts for nothing. A generated secret has about 79 bits; the start
 * refuses a configured one under {@value #MIN_BITS}.
 */
final class SecretStrength {
  static final int MIN_BITS = 60;

  private SecretStrength() {
  }

  static double bits(String secret) {
    int pool = 0;
    if (secret.chars().anyMatch(Character::isLowerCase)) pool += 26;
    if (secret.chars().anyMatch(Character::isUpperCase)) pool += 26;
    if (secret.chars().anyMatch(Character::isDigit)) pool += 10;
    if (secret.chars().anyMatch(c -> !Character.isLetterOrDigit(c))) pool += 33;
    if (pool == 0) return 0;
    int counted = 0;
    int[] points = secret.codePoints().toArray();
    for (int i = 0; i < points.length; i++) {
      int step = i == 0 ? Integer.MAX_VALUE : Math.abs(points[i] - points[i - 1]);
      if (step > 1) counted++;
    }
    return counted * Math.log(pool) / Math.log(2);
  }

  /** Why the secret is too weak, or null. */
  static String problem(String secret) {
    double bits = bits(secret);
    if (bits >= MIN_BITS) return null;
    return "--instructor-secret is too easy to guess (about " + Math.round(bits) + " bits; at least " + MIN_BITS
        + " are needed): use four or more unrelated words, or leave it out and let the app generate one";
  }
}
