package lab.exactlyonce.lesson;

import java.util.List;
import java.util.regex.Pattern;

/** The rules every lesson value checks in its constructor; messages name the field. */
final class Checks {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private Checks() {}

  static String id(String value, String field) {
    text(value, field);
    if (!ID.matcher(value).matches()) {
      throw new IllegalArgumentException("'" + field + "' must be letters, digits, '-' or '_' (at most 64), got '"
          + value + "'");
    }
    return value;
  }

  static String text(String value, String field) {
    if (value == null || value.isBlank()) throw new IllegalArgumentException("missing required field '" + field + "'");
    return value.strip();
  }

  static String optional(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : List.copyOf(values);
  }

  static <T> List<T> nonEmpty(List<T> values, String field) {
    if (values == null || values.isEmpty()) throw new IllegalArgumentException("'" + field + "' needs at least one entry");
    return List.copyOf(values);
  }
}
