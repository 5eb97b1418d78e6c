package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Learner classes whose names would quietly change what other names mean: a class named like one of the
 * {@code java.lang} types that the language and every ordinary program lean on ({@code System}, {@code String},
 * {@code Object}, {@code Math}, the boxes, the common exceptions) hides that type everywhere in the learner's code,
 * and a class named like one the exercise provides would stand apart from the one the checker hands over. Both are
 * refused with
 * the class's line, before anything runs: {@link SnippetCompiler} looks at the declared names before it compiles (so
 * the learner does not first see the compiler's confusion), the runner at every compiled class after.
 */
final class ShadowedNames {
  /**
   * Names a learner class may not take. Other {@code java.lang} names that suit this subject ({@code Record},
   * {@code Process}, {@code Module}, {@code Runtime}) stay free: hiding them changes nothing a learner relies on, and
   * a checker never sees the learner's classes anyway.
   */
  static final Set<String> LEANED_ON = Set.of(
      "Object", "String", "System", "Math", "StrictMath", "Integer", "Long", "Short", "Byte", "Character", "Boolean",
      "Double", "Float", "Number", "Void", "Class", "Enum", "Iterable", "AutoCloseable", "Comparable", "CharSequence",
      "StringBuilder", "StringBuffer", "Thread", "Runnable", "Cloneable",
      "Throwable", "Exception", "RuntimeException", "Error", "ArithmeticException", "NullPointerException",
      "IllegalArgumentException", "IllegalStateException", "IndexOutOfBoundsException",
      "ArrayIndexOutOfBoundsException", "StringIndexOutOfBoundsException", "ClassCastException",
      "UnsupportedOperationException", "NumberFormatException", "AssertionError", "StackOverflowError",
      "OutOfMemoryError", "InterruptedException", "CloneNotSupportedException",
      "Override", "Deprecated", "SuppressWarnings", "FunctionalInterface", "SafeVarargs");

  private ShadowedNames() {
  }

  /** The problems with these class names (binary names), each found at its declaration in {@code source}. */
  static List<Diagnostic> problems(Set<String> classNames, Set<String> provided, String source) {
    Map<String, Integer> declaredAt = new LinkedHashMap<>();
    for (String name : classNames) declaredAt.put(name, line(source, simpleName(name)));
    return problems(declaredAt, provided);
  }

  /** The problems with these class names (binary names) declared at these lines. */
  static List<Diagnostic> problems(Map<String, Integer> declaredAt, Set<String> provided) {
    List<Diagnostic> problems = new ArrayList<>();
    for (Map.Entry<String, Integer> declared : declaredAt.entrySet()) {
      String binaryName = declared.getKey();
      String simple = simpleName(binaryName);
      if (simple.isEmpty()) continue;
      if (provided.contains(binaryName)) {
        problems.add(new Diagnostic(declared.getValue(), 0, "your code declares a class " + simple + ", which the "
            + "exercise provides: remove yours and use the exercise's " + simple));
      } else if (isJavaLangType(simple)) {
        problems.add(new Diagnostic(declared.getValue(), 0, "a class of yours named " + simple + " would hide "
            + "java.lang." + simple + " from all of your code: give it another name"));
      }
    }
    problems.sort(Comparator.comparingInt(Diagnostic::line));
    return problems;
  }

  /** {@code Outer$Inner} is {@code Inner}; a local class {@code Outer$1Local} is {@code Local}; anonymous ones none. */
  static String simpleName(String binaryName) {
    String name = binaryName.substring(Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$')) + 1);
    int i = 0;
    while (i < name.length() && Character.isDigit(name.charAt(i))) i++;
    return name.substring(i);
  }

  private static boolean isJavaLangType(String simpleName) {
    return LEANED_ON.contains(simpleName);
  }

  private static int line(String source, String simpleName) {
    Matcher m = Pattern.compile("\\b(?:class|interface|enum)\\s+" + Pattern.quote(simpleName) + "\\b").matcher(source);
    if (!m.find()) return 0;
    int line = 1;
    for (int i = 0; i < m.start(); i++) if (source.charAt(i) == '\n') line++;
    return line;
  }
}
