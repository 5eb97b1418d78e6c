package lab.exactlyonce.snippet;

import lab.exactlyonce.lesson.LessonFormatException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The header of a snippet or exercise file: the {@code // Key: value} lines before the code, starting with
 * {@code // Id:}, the stable id that lessons and stored progress refer to. The id is written out rather than
 * derived from the file or class name, so renaming a class never moves anyone's progress. The one reader of
 * these headers: a missing, repeated or malformed id or an unknown key stops the start with one line naming the
 * file and the line.
 *
 * @param idLine the 1-based line of the {@code // Id:} header
 * @param values the other keys' values in file order, each stripped; every known key is present
 * @param body the file after the header: what the learner sees
 */
public record ContentHeader(String id, int idLine, Map<String, List<String>> values, String body) {
  private static final Pattern LINE = Pattern.compile("^//\\s*([A-Z][A-Za-z]*):\\s?(.*)$");
  private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
  static final String ID_KEY = "Id";

  public ContentHeader {
    values = Map.copyOf(values);
  }

  /**
   * Reads the header of {@code text}.
   *
   * @param shown names the file in error messages
   * @param keys the keys this kind of file may use besides {@code Id}, in the order error messages list them
   */
  public static ContentHeader read(String shown, String text, List<String> keys) {
    List<String> known = Stream.concat(Stream.of(ID_KEY), keys.stream()).toList();
    Map<String, List<String>> values = new LinkedHashMap<>();
    keys.forEach(k -> values.put(k, new ArrayList<>()));
    String[] lines = text.replace("\r\n", "\n").split("\n", -1);
    String id = null;
    int idLine = 0;
    int body = 0;
    for (; body < lines.length; body++) {
      Matcher m = LINE.matcher(lines[body]);
      if (!m.matches()) break;
      String key = m.group(1);
      String value = m.group(2).strip();
      String at = shown + ": line " + (body + 1) + ": ";
      if (key.equals(ID_KEY)) {
        if (id != null) throw new LessonFormatException(at + "a second '// Id:' line; the id is '" + id + "' (line " + idLine + ")");
        if (!ID.matcher(value).matches()) {
          throw new LessonFormatException(at + "id '" + value + "' must be lower-case letters and digits in words joined by"
              + " '-', such as 'sink-demo'");
        }
        id = value;
        idLine = body + 1;
      } else if (values.containsKey(key)) {
        values.get(key).add(value);
      } else {
        throw new LessonFormatException(at + "unknown header '" + key + ":'; known headers: " + String.join(", ", known));
      }
    }
    if (id == null) {
      throw new LessonFormatException(shown + ": missing '// Id:' header line (the stable id lessons and progress"
          + " refer to, such as '// Id: sink-demo')");
    }
    return new ContentHeader(id, idLine, values, String.join("\n", List.of(lines).subList(body, lines.length)));
  }

  /** Every value of {@code key}, in file order. */
  public List<String> all(String key) {
    return List.copyOf(values.get(key));
  }

  /** The first value of {@code key}, or {@code ""} when there is none. */
  public String first(String key) {
    return values.get(key).isEmpty() ? "" : values.get(key).get(0);
  }

  /** The values of {@code key} joined with spaces: continued prose such as {@code // Summary:} lines. */
  public String joined(String key) {
    return String.join(" ", values.get(key));
  }
}
