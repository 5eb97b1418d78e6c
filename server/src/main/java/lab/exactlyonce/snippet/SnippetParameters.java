package lab.exactlyonce.snippet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place that reads and rewrites a snippet's parameters: declarations such as
 * {@code static final int CRASH_AFTER = 4;} ({@code int}, {@code long} or {@code boolean}, a literal value). The
 * replay lab's knobs and the quiz's predict-the-output variants both run snippets rewritten here.
 */
public final class SnippetParameters {
  /**
   * A declaration a knob sets; also sent to the page ({@code data-declaration}) so the knobs read the code by this
   * one rule. Its syntax stays within what Java's and JavaScript's regular expressions share.
   */
  static final Pattern DECLARATION = Pattern.compile(
      "(static\\s+final\\s+(int|long|boolean)\\s+([A-Z][A-Z0-9_]*)\\s*=\\s*)(-?\\d{1,18}[lL]?|true|false)(\\s*;)");

  /** One declaration: its type ({@code int}, {@code long}, {@code boolean}) and its value as written. */
  public record Declaration(String type, String name, String literal) {
    /** The value: a {@code Long} for int and long, a {@code Boolean} for boolean. */
    public Object value() {
      if (type.equals("boolean")) return Boolean.valueOf(literal);
      String digits = literal.endsWith("L") || literal.endsWith("l") ? literal.substring(0, literal.length() - 1) : literal;
      return Long.valueOf(digits);
    }

    public boolean numeric() {
      return !type.equals("boolean");
    }
  }

  private SnippetParameters() {
  }

  /** Every parameter the source declares, by name, in declaration order (the first declaration of a name wins). */
  public static Map<String, Declaration> declarations(String source) {
    Map<String, Declaration> found = new LinkedHashMap<>();
    Matcher m = DECLARATION.matcher(source);
    while (m.find()) found.putIfAbsent(m.group(3), new Declaration(m.group(2), m.group(3), m.group(4)));
    return found;
  }

  /**
   * The source with each named declaration's value replaced (the first declaration of each name).
   *
   * @param values {@code Long}/{@code Integer} for int and long parameters, {@code Boolean} for boolean ones
   * @throws IllegalArgumentException naming the parameter when the source does not declare it with a fitting type
   */
  public static String rewrite(String source, Map<String, ?> values) {
    String out = source;
    for (Map.Entry<String, ?> e : values.entrySet()) out = rewrite(out, e.getKey(), e.getValue());
    return out;
  }

  private static String rewrite(String source, String name, Object value) {
    Matcher m = DECLARATION.matcher(source);
    while (m.find()) {
      if (!m.group(3).equals(name)) continue;
      String type = m.group(2);
      String literal;
      if (type.equals("boolean")) {
        if (!(value instanceof Boolean)) throw new IllegalArgumentException(name + " is a boolean, not " + value);
        literal = value.toString();
      } else {
        if (!(value instanceof Long || value instanceof Integer)) {
          throw new IllegalArgumentException(name + " is " + (type.equals("int") ? "an int" : "a long") + ", not " + value);
        }
        long v = ((Number) value).longValue();
        if (type.equals("int") && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
          throw new IllegalArgumentException(name + " is an int; " + v + " does not fit");
        }
        literal = v > Integer.MAX_VALUE || v < Integer.MIN_VALUE ? v + "L" : Long.toString(v);
      }
      return source.substring(0, m.start()) + m.group(1) + literal + m.group(5) + source.substring(m.end());
    }
    throw new IllegalArgumentException("no declaration 'static final ... " + name + " = ...;'");
  }
}
