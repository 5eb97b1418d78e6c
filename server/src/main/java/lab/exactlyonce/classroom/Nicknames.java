package lab.exactlyonce.classroom;

import io.javalin.http.BadRequestResponse;

import java.text.Normalizer;
import java.util.Locale;

/** The rules for a nickname: trimmed, 1 to {@value #MAX} characters, no control or format characters. */
final class Nicknames {
  static final int MAX = 24;

  private Nicknames() {}

  /** The nickname as it will be shown, or 400 naming what is wrong. */
  static String check(String typed) {
    if (typed == null) throw new BadRequestResponse("'nickname' is required");
    String name = Normalizer.normalize(typed, Normalizer.Form.NFC).strip();
    if (name.isEmpty()) throw new BadRequestResponse("'nickname' must not be empty");
    int length = name.codePointCount(0, name.length());
    if (length > MAX) {
      throw new BadRequestResponse("'nickname' is " + length + " characters; the limit is " + MAX);
    }
    if (name.codePoints().anyMatch(c -> Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)) {
      throw new BadRequestResponse("'nickname' must not contain control characters");
    }
    return name;
  }

  /** Two nicknames are the same when their keys are: case-insensitive. */
  static String key(String nickname) {
    return nickname.toLowerCase(Locale.ROOT);
  }
}
