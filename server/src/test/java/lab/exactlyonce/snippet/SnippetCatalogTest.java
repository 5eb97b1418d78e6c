package lab.exactlyonce.snippet;

import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class SnippetCatalogTest {
  static final String BODY = "public class Demo {\n  public static void main(String[] a) { System.out.println(\"x\"); }\n}\n";

  private static Snippet parse(String header) {
    return SnippetCatalog.parse("snippets/l/A.java", "l", header + BODY);
  }

  @Test
  void the_header_becomes_id_title_summary_expected_output_and_explanation() {
    Snippet s = SnippetCatalog.parse("snippets/l/HelloWorldDemo.java", "l",
        "// Id: hello\n// Title: Hello\n// Summary: one\n// Summary: two\n// Expect: x\n// Expect: y\n"
            + "// Explain: because\n// Explain: reasons\n" + BODY);
    assertEquals("hello", s.id());
    assertEquals("Hello", s.title());
    assertEquals("one two", s.summary());
    assertEquals("x\ny\n", s.expectedOutput());
    assertEquals("because reasons", s.explanation());
    assertEquals(BODY, s.source());
  }

  static Stream<Arguments> broken() {
    return Stream.of(
        arguments("// Id: a\n// Expect: x\n", "snippets/l/A.java: missing '// Title:' header line"),
        arguments("// Id: a\n// Title: A\n",
            "snippets/l/A.java: missing '// Expect:' header lines (the output the snippet prints)"),
        arguments("// Id: a\n// Title: A\n// Expected: x\n",
            "snippets/l/A.java: line 3: unknown header 'Expected:'; known headers: Id, Title, Summary, Expect, Explain, Knob"),
        arguments("// Title: A\n// Expect: x\n", "snippets/l/A.java: missing '// Id:' header line (the stable id lessons"
            + " and progress refer to, such as '// Id: sink-demo')"),
        arguments("// Title: A\n// Id: Sink_Demo\n// Expect: x\n", "snippets/l/A.java: line 2: id 'Sink_Demo' must be"
            + " lower-case letters and digits in words joined by '-', such as 'sink-demo'"),
        arguments("// Id: \n// Title: A\n// Expect: x\n", "snippets/l/A.java: line 1: id '' must be"
            + " lower-case letters and digits in words joined by '-', such as 'sink-demo'"),
        arguments("// Id: a\n// Title: A\n// Id: b\n// Expect: x\n",
            "snippets/l/A.java: line 3: a second '// Id:' line; the id is 'a' (line 1)"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("broken")
  void a_broken_header_names_the_file_and_what_is_wrong(String header, String message) {
    assertEquals(message, assertThrows(LessonFormatException.class, () -> parse(header)).getMessage());
  }

  @Test
  void snippet_ids_are_unique_over_all_lessons_whatever_the_files_are_called(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("one"));
    Files.createDirectories(root.resolve("two"));
    Files.writeString(root.resolve("one").resolve("FirstDemo.java"), "// Title: T\n// Id: same\n// Expect: x\n" + BODY);
    Files.writeString(root.resolve("two").resolve("OtherDemo.java"), "// Id: same\n// Title: T\n// Expect: x\n" + BODY);
    assertEquals("snippets/two/OtherDemo.java: line 1: snippet id 'same' is already used by snippets/one/FirstDemo.java:2;"
        + " snippet ids must be unique over all lessons",
        assertThrows(LessonFormatException.class, () -> SnippetCatalog.load(root)).getMessage());
  }

  @Test
  void the_id_is_the_header_not_the_file_name(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("one"));
    Files.writeString(root.resolve("one").resolve("RenamedDemo.java"), "// Id: sink-demo\n// Title: T\n// Expect: x\n" + BODY);
    SnippetCatalog catalog = SnippetCatalog.load(root);
    assertEquals("one", catalog.find("sink-demo").orElseThrow().lesson());
    assertEquals(Set.of("sink-demo"), catalog.idsIn("one"));
    assertEquals(Map.of("sink-demo", root.resolve("one").resolve("RenamedDemo.java")), SnippetIds.in(root, "one"));
  }

  @Test
  void the_bundled_snippets_keep_the_ids_that_stored_progress_points_at() {
    assertEquals(List.of("sink-demo", "txn-dedupe-demo", "outbox-demo"),
        SnippetCatalog.load(Path.of("snippets")).all().stream().map(Snippet::id).toList());
  }
}
