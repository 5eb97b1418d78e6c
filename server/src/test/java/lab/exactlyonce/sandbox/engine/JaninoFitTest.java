package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static lab.exactlyonce.sandbox.engine.Snippets.main;
import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which sources the fast compiler keeps: only those it compiles as Java does. */
class JaninoFitTest {
  @ParameterizedTest
  @ValueSource(strings = {"int n = 0; for (int i = 0; i < n; i++) n += i; System.out.println(n);",
      "long x = 1; while (x < 1000) x *= 3; System.out.println(x % 7 == 0 ? \"yes\" : \"no\");",
      "boolean done = false; do { done = !done; } while (!done); System.out.println(Math.max(1, 2));",
      "int n = 0; try { n = 1 / n; } catch (ArithmeticException e) { System.out.println(e.getMessage()); }"})
  void janino_keeps_plain_code_on_primitives(String body) {
    assertTrue(JaninoFit.fits(main(body)), body);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "try (java.util.Scanner s = new java.util.Scanner(\"x\")) { }",   // a failing close() would replace the error
      "assert 1 > 2;",                                                    // Janino checks assertions, java does not
      "List<char[]> l = new ArrayList<>();",                              // generics are erased before overloads
      "int n = java.util.Collections.<Integer>emptyList().size();",
      "String name = null;",                                              // Janino writes no variable names
      "int[] counts = null;",
      "Runnable r = () -> { };",
      "var n = 1;",
      "String s = \"\"\"\n    text\n    \"\"\";",
      "int k = switch (1) { default -> 1; };"})
  void javac_compiles_what_janino_compiles_otherwise(String body) {
    assertFalse(JaninoFit.fits(main(body)), body);
  }

  @ParameterizedTest
  @ValueSource(strings = {"record Point(int x, int y) { }", "static <T> void m() { }", "static void m(Object o) { }",
      "sealed interface S permits A { }"})
  void javac_compiles_members_janino_compiles_otherwise(String members) {
    assertFalse(JaninoFit.fits(program("", members)), members);
  }
}
