package lab.exactlyonce.classroom;

import java.security.SecureRandom;
import java.util.Locale;
import java.util.regex.Pattern;

/** Join codes: six characters from an alphabet without 0/O, 1/I/L, so nobody misreads one on a projector. */
final class JoinCodes {
  static final String ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  static final int LENGTH = 6;
  private static final Pattern SHAPE = Pattern.compile("[" + ALPHABET + "]{" + LENGTH + "}");

  private final SecureRandom random = new SecureRandom();

  String next() {
    var code = new StringBuilder(LENGTH);
    for (int i = 0; i < LENGTH; i++) code.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    return code.toString();
  }

  /** What a student typed, normalised: spaces and dashes dropped, upper case. */
  static String normalise(String typed) {
    return typed == null ? "" : typed.replaceAll("[\\s-]", "").toUpperCase(Locale.ROOT);
  }

  static boolean wellFormed(String code) {
    return SHAPE.matcher(code).matches();
  }
}
