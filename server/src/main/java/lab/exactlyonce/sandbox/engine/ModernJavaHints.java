package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.Location;

import java.util.Collection;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns Janino's messages about Java it does not implement into one-line hints at the same line and column.
 * Learners type modern Java (lambdas, {@code var}, records, switch expressions...); Janino accepts a Java 7-ish
 * subset plus a few later features (see toolchain.md). Every message here was taken from Janino 3.1.12 itself.
 */
final class ModernJavaHints {
  static final String LAMBDA = "lambdas are not supported here: use an anonymous class";
  static final String METHOD_REFERENCE = "method references are not supported here: use an anonymous class";
  static final String VAR = "var is not supported here: write the type, e.g. int count = 0;";
  static final String RECORD = "records are not supported here: write a small class with final fields and a constructor";
  static final String SWITCH_EXPRESSION =
      "switch expressions are not supported here: use a switch statement with case X: ... break;";
  static final String ARROW_LABEL = "case X -> is not supported here: write case X: ... break;";
  static final String MULTI_CATCH =
      "multi-catch (catch (A | B e)) is not supported here: write one catch block per exception type";
  static final String INSTANCEOF_PATTERN =
      "instanceof patterns are not supported here: test with instanceof, then cast, e.g. String s = (String) o;";
  static final String TOO_LARGE = "a method is too large (over 64 KB of bytecode): split it into smaller methods";
  static final String SEALED = "sealed classes are not supported here: remove sealed, non-sealed and permits";

  private static final Map<String, String> EXACT = Map.of(
      "Compilation of lambda expression NYI", LAMBDA,
      "Compilation of method reference NYI", METHOD_REFERENCE,
      "Local variable type inference NYI", VAR,
      "Cannot determine simple type name \"record\"", RECORD,
      "Unexpected token \"switch\" in primary", SWITCH_EXPRESSION,
      "':' expected instead of '->'", ARROW_LABEL,
      "Multi-type CATCH parameters NYI", MULTI_CATCH);

  private static final Pattern ASSIGN_FROM_OBJECT =
      Pattern.compile("Assignment conversion not possible from type \"java\\.lang\\.Object\" to type \"([\\w.$\\[\\]]+)\"");
  private static final Pattern MUST_IMPLEMENT = Pattern.compile(
      "Non-abstract class \"[^\"]+\" must implement method \"[^\"]*?([\\w$]+)\\.(\\w+)\\(([^)]*java\\.lang\\.Object[^)]*)\\)\"");
  private static final Pattern INSTANCEOF_WITH_NAME =
      Pattern.compile("\\binstanceof\\s+[\\w.]+(\\s*<[^>]*>)?(\\s*\\[\\s*\\])*\\s+[A-Za-z_$][\\w$]*");
  private static final Pattern METHOD_NOT_DECLARED = Pattern.compile(
      "A method named \"(\\w+)\" is not declared in any enclosing class nor any supertype.*");
  private static final Pattern RECORD_DECLARATION = Pattern.compile("\\brecord\\s+[A-Za-z_$][\\w$]*\\s*[(<]");
  private static final Pattern SEALED_WORDS = Pattern.compile("\\b(sealed|non-sealed|permits)\\b");
  private static final Map<String, String> BOXES = Map.of("int", "Integer", "long", "Long", "double", "Double",
      "boolean", "Boolean", "char", "Character", "float", "Float", "short", "Short", "byte", "Byte");

  private final String[] lines;

  ModernJavaHints(String source) {
    this.lines = source.split("\r\n|\r|\n", -1);
  }

  Diagnostic diagnostic(Location location, String message) {
    int line = location == null ? 0 : Math.max(0, location.getLineNumber());
    int column = location == null ? 0 : Math.max(0, location.getColumnNumber());
    String hint = hint(line, message);
    if (hint.equals(RECORD)) {
      // Janino reports the token before the record declaration; point at the declaration itself.
      for (int i = Math.max(1, line); i <= lines.length; i++) {
        Matcher m = RECORD_DECLARATION.matcher(lines[i - 1]);
        if (m.find()) return new Diagnostic(i, m.start() + 1, hint);
      }
    }
    return new Diagnostic(line, column, hint);
  }

  String hint(int line, String message) {
    String exact = EXACT.get(message);
    if (exact != null) return exact;
    if (message.endsWith("Code grows beyond 64 KB")) return TOO_LARGE;
    String text = line >= 1 && line <= lines.length ? lines[line - 1] : "";
    if (INSTANCEOF_WITH_NAME.matcher(text).find() && message.endsWith("expected instead of '" + lastWordAfterInstanceof(text) + "'")) {
      return INSTANCEOF_PATTERN;
    }
    if (SEALED_WORDS.matcher(text).find()) return SEALED;
    Matcher m = ASSIGN_FROM_OBJECT.matcher(message);
    if (m.find()) {
      String type = simpleName(m.group(1));
      return "cast the result: generics are not checked here, e.g. (" + BOXES.getOrDefault(type, type) + ") list.get(0)";
    }
    m = METHOD_NOT_DECLARED.matcher(message);
    if (m.matches() && calledOnAResult(text, m.group(1))) {
      return "cast first: generics are not checked here, so list.get(0) is an Object; write ((String) list.get(0))."
          + m.group(1) + "(...)";
    }
    m = MUST_IMPLEMENT.matcher(message);
    if (m.find()) {
      return "generics are erased here: implement " + m.group(2) + "(" + simpleNames(m.group(3))
          + ") from " + m.group(1) + " and cast the arguments inside";
    }
    return message;
  }

  /** Whether the source line calls {@code name} on the result of another call, as in {@code list.get(0).name(}. */
  private static boolean calledOnAResult(String text, String name) {
    return Pattern.compile("\\)\\s*\\.\\s*" + Pattern.quote(name) + "\\s*\\(").matcher(text).find();
  }

  /**
   * Janino's follow-on errors after a construct it could not parse (a record body read as a method); dropped when
   * the hint for that construct is there.
   */
  static boolean isFollowOn(String message, Collection<Diagnostic> earlier) {
    if (!message.equals("Method must return a value")) return false;
    for (Diagnostic d : earlier) if (d.message().equals(RECORD)) return true;
    return false;
  }

  private static String lastWordAfterInstanceof(String text) {
    Matcher m = INSTANCEOF_WITH_NAME.matcher(text);
    if (!m.find()) return "";
    String found = m.group();
    int space = Math.max(found.lastIndexOf(' '), found.lastIndexOf('\t'));
    return found.substring(space + 1);
  }

  private static String simpleName(String type) {
    int dot = Math.max(type.lastIndexOf('.'), type.lastIndexOf('$'));
    return type.substring(dot + 1);
  }

  private static String simpleNames(String parameters) {
    StringBuilder out = new StringBuilder();
    for (String p : parameters.split(",")) {
      if (out.length() > 0) out.append(", ");
      out.append(simpleName(p.trim()));
    }
    return out.toString();
  }
}
