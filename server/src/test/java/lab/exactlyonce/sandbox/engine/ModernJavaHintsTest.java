package lab.exactlyonce.sandbox.engine;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static lab.exactlyonce.sandbox.engine.Snippets.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Modern Java that Janino does not implement gets one hint, at the line and column of the construct. */
class ModernJavaHintsTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();

  static Stream<Arguments> modernJava() {
    return Stream.of(
        arguments("lambda", "Runnable r = () -> { };", "", 4, 19, ModernJavaHints.LAMBDA),
        arguments("method reference", "Comparator<String> c = String::compareTo;", "", 4, 34,
            ModernJavaHints.METHOD_REFERENCE),
        arguments("var", "var count = 1;", "", 4, 5, ModernJavaHints.VAR),
        arguments("var in enhanced for", "for (var s : args) { }", "", 4, 10, ModernJavaHints.VAR),
        arguments("record", "", "record Point(int x, int y) { }", 6, 3, ModernJavaHints.RECORD),
        arguments("switch expression", "int y = switch (args.length) { case 0 -> 1; default -> 2; };", "", 4, 13,
            ModernJavaHints.SWITCH_EXPRESSION),
        arguments("arrow labels", "switch (args.length) { case 0 -> System.out.println(); default -> { } }", "", 4, 35,
            ModernJavaHints.ARROW_LABEL),
        arguments("multi-catch", "try { } catch (IllegalStateException | IllegalArgumentException e) { }", "", 4, 44,
            ModernJavaHints.MULTI_CATCH),
        arguments("instanceof pattern", "Object o = \"s\"; if (o instanceof String s) { }", "", 4, 45,
            ModernJavaHints.INSTANCEOF_PATTERN),
        arguments("sealed", "", "sealed interface Shape permits Sq { } final class Sq implements Shape { }", 6, 10,
            ModernJavaHints.SEALED),
        arguments("generic element assigned without a cast",
            "List<String> l = new ArrayList<String>(); l.add(\"x\"); String s = l.get(0);", "", 4, 72,
            "cast the result: generics are not checked here, e.g. (String) list.get(0)"),
        arguments("generic value unboxed without a cast",
            "Map<String, Integer> m = new HashMap<String, Integer>(); int v = m.get(\"a\");", "", 4, 72,
            "cast the result: generics are not checked here, e.g. (Integer) list.get(0)"),
        arguments("method called on a generic element",
            "List<String> l = new ArrayList<String>(); System.out.println(l.get(0).length());", "", 4, 75,
            "cast first: generics are not checked here, so list.get(0) is an Object; write ((String) list.get(0)).length(...)"),
        arguments("generic Comparator implemented with its type argument",
            "Collections.sort(new ArrayList<String>(), new Comparator<String>() {"
                + " public int compare(String a, String b) { return 0; } });", "", 4, 70,
            "generics are erased here: implement compare(Object, Object) from Comparator and cast the arguments inside"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modernJava")
  void gets_a_one_line_hint(String feature, String body, String members, int line, int column, String hint) {
    RunResult result = RUNNER.run(program(body, members), SandboxLimits.defaults());

    assertEquals(Outcome.COMPILE_ERROR, result.status(), feature);
    assertEquals(List.of(new Diagnostic(line, column, hint)), result.diagnostics(), feature);
  }
}
