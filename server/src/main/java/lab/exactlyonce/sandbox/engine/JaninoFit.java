package lab.exactlyonce.sandbox.engine;

import org.codehaus.janino.Token;
import org.codehaus.janino.TokenType;

import java.util.List;
import java.util.Set;

/**
 * Whether Janino, the fast compiler, compiles a source with Java's semantics; when not, javac compiles it. A scan of
 * the tokens, cheap next to either compiler, that errs towards javac. Janino differs from javac on:
 * <ul>
 *   <li>try-with-resources: a failing {@code close()} replaces the body's exception instead of being suppressed;</li>
 *   <li>{@code assert}: always checked, where {@code java} runs with assertions off;</li>
 *   <li>generics: erased before overloads are resolved, so {@code println(list.get(0))} of a {@code List<char[]>}
 *       calls {@code println(Object)}; any type argument or parameter goes to javac;</li>
 *   <li>variables of reference types: Janino writes no names of local variables, so a NullPointerException's
 *       message says {@code "<local1>" is null}; any declaration of a class or array type (but {@code main}'s
 *       {@code String[] args} and a {@code catch} parameter, which are never null) goes to javac;</li>
 *   <li>what it does not compile or compiles only in part (lambdas, method references, {@code var}, records, switch
 *       expressions and arrows, patterns, sealed types, text blocks): javac, which also words the errors.</li>
 * </ul>
 * Whatever Janino refuses goes to javac too ({@link Compilers}), so a miss here costs a compilation, never a result.
 */
final class JaninoFit {
  private static final Set<String> JAVAC_WORDS = Set.of("assert", "var", "record", "sealed", "permits", "yield");
  private static final Set<String> JAVAC_OPERATORS = Set.of("->", "::");
  private static final Set<String> PRIMITIVES = Set.of("int", "long", "short", "byte", "char", "boolean", "float", "double");

  private JaninoFit() {
  }

  static boolean fits(String source) {
    if (source.contains("\"\"\"")) return false;
    SourceTokens scanned = SourceTokens.of(source);
    if (!scanned.complete()) return false;
    List<Token> tokens = scanned.tokens();
    for (int i = 0; i < tokens.size(); i++) {
      String value = tokens.get(i).value;
      if (tokens.get(i).type == TokenType.IDENTIFIER && JAVAC_WORDS.contains(value)) return false;
      if (tokens.get(i).type == TokenType.KEYWORD && value.equals("assert")) return false;
      if (JAVAC_OPERATORS.contains(value)) return false;
      if (value.equals("try") && i + 1 < tokens.size() && tokens.get(i + 1).value.equals("(")) return false;
      if (value.equals("<") && i + 1 < tokens.size() && typeArgument(tokens, i)) return false;
      if (referenceDeclaration(tokens, i)) return false;
    }
    return true;
  }

  /**
   * Whether the {@code <} at {@code i} opens type arguments or parameters: {@code <>}, {@code <?}, {@code .<},
   * {@code <int[]}, or a name that starts with a capital ({@code List<String>}, {@code <T>}). A comparison with a
   * constant ({@code i < MAX}) counts too: it costs only the slower compiler.
   */
  private static boolean typeArgument(List<Token> tokens, int i) {
    Token next = tokens.get(i + 1);
    if (next.value.equals(">") || next.value.equals("?") || i > 0 && tokens.get(i - 1).value.equals(".")) return true;
    if (PRIMITIVES.contains(next.value)) return i + 2 < tokens.size() && tokens.get(i + 2).value.equals("[");
    return next.type == TokenType.IDENTIFIER && Character.isUpperCase(next.value.charAt(0));
  }

  /**
   * Whether a declaration of a variable of a class or array type starts at {@code i}: {@code String name},
   * {@code int[] counts}, {@code Node... nodes}. Janino scans primitive type names as keywords.
   */
  private static boolean referenceDeclaration(List<Token> tokens, int i) {
    Token type = tokens.get(i);
    boolean named = type.type == TokenType.IDENTIFIER;
    if (!named && !PRIMITIVES.contains(type.value)) return false;
    int j = i + 1;
    boolean array = false;
    while (j + 1 < tokens.size() && tokens.get(j).value.equals("[") && tokens.get(j + 1).value.equals("]")) {
      j += 2;
      array = true;
    }
    if (j < tokens.size() && tokens.get(j).value.equals("...")) {
      j++;
      array = true;
    }
    if (!named && !array || j >= tokens.size() || tokens.get(j).type != TokenType.IDENTIFIER) return false;
    boolean neverNull = i >= 2 && tokens.get(i - 1).value.equals("(")
        && (tokens.get(i - 2).value.equals("main") && type.value.equals("String") && array
            || tokens.get(i - 2).value.equals("catch"));
    return !neverNull;
  }

}
