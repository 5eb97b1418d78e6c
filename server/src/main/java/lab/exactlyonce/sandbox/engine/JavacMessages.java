package lab.exactlyonce.sandbox.engine;

import javax.tools.JavaFileObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * javac's errors as a learner can act on them: the first real error first, one diagnostic per mistake (a name that
 * is not defined is named once, however often it is used; after a syntax error, whose follow-ons are guesses, only
 * that one), each message on one line in plain words, naming what it is about.
 */
final class JavacMessages {
  private static final Pattern SYMBOL = Pattern.compile("symbol:\\s+(variable|method|class|interface|enum|record)\\s+(\\S+(?:\\([^)]*\\))?)");
  private static final Pattern LOCATION = Pattern.compile("location:\\s+(?:variable \\S+ of type |class |interface |enum |record |package )?(\\S+)");

  private JavacMessages() {
  }

  static List<Diagnostic> plain(List<javax.tools.Diagnostic<? extends JavaFileObject>> all) {
    List<javax.tools.Diagnostic<? extends JavaFileObject>> errors = new ArrayList<>();
    for (javax.tools.Diagnostic<? extends JavaFileObject> d : all) {
      if (d.getKind() == javax.tools.Diagnostic.Kind.ERROR) errors.add(d);
    }
    errors.sort(Comparator.comparingLong(javax.tools.Diagnostic<? extends JavaFileObject>::getLineNumber)
        .thenComparingLong(javax.tools.Diagnostic::getColumnNumber));
    List<Diagnostic> out = new ArrayList<>();
    Set<String> named = new HashSet<>();
    for (javax.tools.Diagnostic<? extends JavaFileObject> d : errors) {
      if (!out.isEmpty() && syntax(errors.get(0).getCode())) break;
      String message = d.getMessage(Locale.ROOT);
      Matcher symbol = SYMBOL.matcher(message);
      if (symbol.find() && d.getCode() != null && d.getCode().startsWith("compiler.err.cant.resolve")) {
        if (!named.add(symbol.group(1) + " " + symbol.group(2))) continue;
        message = notFound(symbol.group(1), symbol.group(2), message);
      } else {
        message = nonStatic(weakerAccess(oneLine(message)));
      }
      out.add(new Diagnostic((int) Math.max(0, d.getLineNumber()), (int) Math.max(0, d.getColumnNumber()), message));
    }
    return out;
  }

  /** The parser's errors: after the first, javac guesses how the source goes on, and its next errors are guesses. */
  private static boolean syntax(String code) {
    return code != null && (code.startsWith("compiler.err.expected") || code.startsWith("compiler.err.illegal.start.of")
        || code.startsWith("compiler.err.premature.eof") || code.startsWith("compiler.err.not.stmt")
        || code.startsWith("compiler.err.unclosed") || code.startsWith("compiler.err.illegal.char")
        || code.equals("compiler.err.else.without.if") || code.equals("compiler.err.orphaned")
        || code.startsWith("compiler.err.invalid.meth.decl") || code.equals("compiler.err.class.method.or.field.expected"));
  }

  private static String notFound(String kind, String name, String message) {
    Matcher location = LOCATION.matcher(message);
    String where = location.find() ? " in " + location.group(1) : "";
    switch (kind) {
      case "variable":
        return name + " is not defined: no variable, parameter or field of that name is visible here"
            + " (check the spelling, or declare it before this line)";
      case "method":
        return "there is no method " + name + where + " (check the name and the types of the arguments)";
      default:
        return "there is no " + kind + " named " + name + where + " (check the spelling, or add an import)";
    }
  }

  private static final Pattern JAVA_LANG = Pattern.compile("\\bjava\\.lang\\.(?=[A-Z])");

  private static final Pattern WEAKER = Pattern.compile("(\\w+)\\([^)]*\\) in (\\S+) cannot (implement|override)"
      + " \\w+\\([^)]*\\) in (\\S+); attempting to assign weaker access privileges; was (\\w+)");

  /** "add(int) in MyCounter cannot implement add(int) in Counter; attempting to assign weaker access...". */
  private static String weakerAccess(String message) {
    Matcher m = WEAKER.matcher(message);
    if (!m.matches()) return message;
    boolean implementing = m.group(3).equals("implement");
    return "the method " + m.group(1) + " of " + m.group(2) + " must be " + m.group(5) + ": it " + m.group(3) + "s "
        + m.group(4) + "." + m.group(1) + (implementing ? ", and every method of an interface is public" : "");
  }

  private static final Pattern NON_STATIC =
      Pattern.compile("non-static (variable|method) (\\S+) cannot be referenced from a static context");

  /** "non-static variable count cannot be referenced from a static context", as a learner would say it. */
  private static String nonStatic(String message) {
    Matcher m = NON_STATIC.matcher(message);
    if (!m.matches()) return message;
    return m.group(2) + " belongs to an object (the " + m.group(1) + " is not static), so static code such as main"
        + " cannot use it directly: make it static, or create an object and use it through that";
  }

  /** javac's message lines ("incompatible types: ...", "  required: int", "  found: String") as one line. */
  static String oneLine(String message) {
    StringBuilder out = new StringBuilder();
    for (String line : message.split("\r\n|\r|\n")) {
      String trimmed = line.trim().replaceAll("\\s+", " ");
      if (trimmed.isEmpty()) continue;
      if (out.length() > 0) out.append(out.charAt(out.length() - 1) == ';' || out.charAt(out.length() - 1) == ':' ? " " : "; ");
      out.append(trimmed);
    }
    return out.length() == 0 ? "the source does not compile" : JAVA_LANG.matcher(out).replaceAll("");
  }
}
