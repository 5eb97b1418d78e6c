package lab.exactlyonce.snippet;

import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Knob header lines, checked against their declarations, and the one declaration rewriter. */
class KnobHeaderTest {
  static final String BODY = "public class Demo {\n  static final int CRASH_AFTER = 4;\n  static final long TTL = 60L;\n"
      + "  static final boolean SLOW = false;\n  public static void main(String[] a) { System.out.println(CRASH_AFTER); }\n}\n";

  static Snippet parse(String knobs) {
    return SnippetCatalog.parse("snippets/l/Demo.java", "l", "// Id: demo\n// Title: T\n// Expect: 4\n" + knobs + BODY);
  }

  @Test
  void knob_lines_become_knobs_with_the_declared_default() {
    Snippet s = parse("// Knob: CRASH_AFTER int 1..5 Crash after this many records\n// Knob: TTL long 10..120 TTL\n"
        + "// Knob: SLOW boolean false..true Go slow\n");
    assertEquals(List.of(new NumberKnob("CRASH_AFTER", "int", 1, 5, 4, "Crash after this many records"),
        new NumberKnob("TTL", "long", 10, 120, 60, "TTL"), new BooleanKnob("SLOW", false, "Go slow")), s.knobs());
  }

  static Stream<Arguments> broken() {
    return Stream.of(
        arguments("// Knob: CRASH_AFTER int 1-5 Crash\n",
            "snippets/l/Demo.java: knob 'CRASH_AFTER int 1-5 Crash' does not read 'NAME int|long|boolean MIN..MAX Label'"),
        arguments("// Knob: CRASH_AFTER int 1..5\n",
            "snippets/l/Demo.java: knob 'CRASH_AFTER int 1..5' does not read 'NAME int|long|boolean MIN..MAX Label'"),
        arguments("// Knob: CRASH_BEFORE int 1..5 Crash\n",
            "snippets/l/Demo.java: knob CRASH_BEFORE needs a declaration 'static final int CRASH_BEFORE = <default>;' in the source"),
        arguments("// Knob: TTL int 1..500 TTL\n",
            "snippets/l/Demo.java: knob TTL needs a declaration 'static final int TTL = <default>;' in the source"),
        arguments("// Knob: CRASH_AFTER int 5..9 Crash\n", "snippets/l/Demo.java: knob CRASH_AFTER defaults to 4, outside 5..9"),
        arguments("// Knob: CRASH_AFTER int 5..1 Crash\n",
            "snippets/l/Demo.java: knob CRASH_AFTER needs a numeric range MIN..MAX with MIN <= MAX"),
        arguments("// Knob: SLOW boolean true..false Slow\n",
            "snippets/l/Demo.java: boolean knob SLOW must have the range false..true"),
        arguments("// Knob: SLOW boolean false..true Slow\n// Knob: SLOW boolean false..true Slow\n",
            "snippets/l/Demo.java: knob SLOW is declared twice"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("broken")
  void a_broken_knob_line_stops_the_start_naming_the_file_and_the_knob(String header, String message) {
    assertEquals(message, assertThrows(LessonFormatException.class, () -> parse(header)).getMessage());
  }

  @Test
  void the_rewriter_replaces_only_the_named_declarations() {
    String rewritten = SnippetParameters.rewrite(BODY, Map.of("CRASH_AFTER", 2L, "SLOW", true, "TTL", 3_000_000_000L));
    assertEquals(BODY.replace("CRASH_AFTER = 4;", "CRASH_AFTER = 2;").replace("SLOW = false;", "SLOW = true;")
        .replace("TTL = 60L;", "TTL = 3000000000L;"), rewritten);
    assertEquals(Map.of("CRASH_AFTER", 2L, "TTL", 3_000_000_000L, "SLOW", true),
        Map.of("CRASH_AFTER", SnippetParameters.declarations(rewritten).get("CRASH_AFTER").value(),
            "TTL", SnippetParameters.declarations(rewritten).get("TTL").value(),
            "SLOW", SnippetParameters.declarations(rewritten).get("SLOW").value()));
  }

  @Test
  void the_rewriter_refuses_an_undeclared_name_or_a_value_of_the_wrong_type() {
    assertEquals("no declaration 'static final ... NOPE = ...;'", assertThrows(IllegalArgumentException.class,
        () -> SnippetParameters.rewrite(BODY, Map.of("NOPE", 1L))).getMessage());
    assertEquals("SLOW is a boolean, not 1", assertThrows(IllegalArgumentException.class,
        () -> SnippetParameters.rewrite(BODY, Map.of("SLOW", 1L))).getMessage());
    assertEquals("CRASH_AFTER is an int; 3000000000 does not fit", assertThrows(IllegalArgumentException.class,
        () -> SnippetParameters.rewrite(BODY, Map.of("CRASH_AFTER", 3_000_000_000L))).getMessage());
  }
}
