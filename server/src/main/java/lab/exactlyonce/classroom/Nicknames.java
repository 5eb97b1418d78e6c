package lab.exactlyonce.classroom;

import io.javalin.http.BadRequestResponse;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;

/**
 * The rules for a nickname: normalised (NFC), trimmed, 1 to {@value #MAX} characters, and nothing a reader cannot
 * see or that turns text around: no broken characters (unpaired surrogates), no control characters, no bidirectional
 * controls, no invisible characters (zero-width ones, fillers, blank patterns). A zero-width joiner is fine inside an
 * emoji sequence. A refusal names the character. Two nicknames that look alike (case, full-width forms) are one.
 */
final class Nicknames {
  static final int MAX = 24;
  private static final int ZERO_WIDTH_JOINER = 0x200D;
  private static final Set<Integer> BIDI_CONTROLS = Set.of(0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D,
      0x202E, 0x2066, 0x2067, 0x2068, 0x2069);
  /** Characters that are letters or marks by category but draw nothing. */
  private static final Set<Integer> BLANKS = Set.of(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0);

  private Nicknames() {}

  /** The nickname as it will be shown, or 400 naming what is wrong. */
  static String check(String typed) {
    if (typed == null) throw new BadRequestResponse("'nickname' is required");
    unpairedSurrogate(typed);
    String name = Normalizer.normalize(typed, Normalizer.Form.NFC).strip();
    if (name.isEmpty()) throw new BadRequestResponse("'nickname' must not be empty");
    int length = name.codePointCount(0, name.length());
    if (length > MAX) {
      throw new BadRequestResponse("'nickname' is " + length + " characters; the limit is " + MAX);
    }
    int[] points = name.codePoints().toArray();
    for (int i = 0; i < points.length; i++) {
      int c = points[i];
      int type = Character.getType(c);
      if (BIDI_CONTROLS.contains(c)) {
        throw refused("the bidirectional control " + describe(c) + ", which can make a name read backwards");
      }
      if (Character.isISOControl(c) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
        throw refused("the control character " + describe(c));
      }
      boolean joinsEmoji = c == ZERO_WIDTH_JOINER && i > 0 && i < points.length - 1
          && isEmoji(points[i - 1]) && isEmoji(points[i + 1]);
      if ((type == Character.FORMAT && !joinsEmoji) || BLANKS.contains(c)) {
        throw refused("the invisible character " + describe(c));
      }
    }
    return name;
  }

  /** Two nicknames are the same when their keys are: ignoring case and compatibility forms (Ｋｉｍ is Kim). */
  static String key(String nickname) {
    return Normalizer.normalize(nickname, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
  }

  private static void unpairedSurrogate(String typed) {
    for (int i = 0; i < typed.length(); i++) {
      char c = typed.charAt(i);
      boolean paired = Character.isHighSurrogate(c) && i + 1 < typed.length() && Character.isLowSurrogate(typed.charAt(i + 1));
      if (paired) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw refused("a broken character (the unpaired surrogate " + String.format(Locale.ROOT, "U+%04X", (int) c)
            + ", half of an emoji or symbol)");
      }
    }
  }

  private static boolean isEmoji(int c) {
    return c >= 0x1F000 || (c >= 0x2600 && c <= 0x27BF) || c == 0xFE0F;
  }

  private static String describe(int c) {
    String name = Character.getName(c);
    return String.format(Locale.ROOT, "U+%04X", c) + (name == null ? "" : " (" + name + ")");
  }

  private static BadRequestResponse refused(String what) {
    return new BadRequestResponse("'nickname' must not contain " + what);
  }
}
