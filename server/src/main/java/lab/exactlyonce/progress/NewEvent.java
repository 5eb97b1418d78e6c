package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An event as a client sends it, before it is stored: its client-generated {@code id} (a UUID, the exactly-once
 * key), what happened ({@code type}), where ({@code lesson}, {@code item}) and details ({@code data}, a JSON object).
 */
public record NewEvent(String id, String type, String lesson, String item, ObjectNode data) {
  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern ID_TEXT = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  public NewEvent {
    id = eventId(id);
    type = Objects.requireNonNull(type, "type");
    if (lesson == null || !ID_TEXT.matcher(lesson).matches()) {
      throw new IllegalArgumentException("'lesson' must be a lesson id (letters, digits, '-' or '_'), got " + describe(lesson));
    }
    if (item == null || !ID_TEXT.matcher(item).matches()) {
      throw new IllegalArgumentException("'item' must be an item id (letters, digits, '-' or '_'), got " + describe(item));
    }
    data = data == null ? JsonNodeFactory.instance.objectNode() : data.deepCopy();
  }

  /** A well-formed event id (a UUID), lower-cased; {@link IllegalArgumentException} naming {@code text} otherwise. */
  public static String eventId(String text) {
    if (!isEventId(text)) {
      throw new IllegalArgumentException("'id' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10, got "
          + describe(text));
    }
    return text.toLowerCase(Locale.ROOT);
  }

  /** Whether {@code text} is a well-formed event id (a UUID). */
  public static boolean isEventId(String text) {
    return text != null && UUID_TEXT.matcher(text).matches();
  }

  private static String describe(String value) {
    if (value == null) return "nothing";
    return "'" + (value.length() > 60 ? value.substring(0, 60) + "..." : value) + "'";
  }
}
