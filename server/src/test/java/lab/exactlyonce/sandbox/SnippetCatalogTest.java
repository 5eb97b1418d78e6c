package lab.exactlyonce.sandbox;

import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SnippetCatalogTest {
  static final String BODY = "public class Demo {\n  public static void main(String[] a) { System.out.println(\"x\"); }\n}\n";

  @Test
  void the_header_becomes_title_summary_expected_output_and_explanation() {
    Snippet s = SnippetCatalog.parse("snippets/l/HelloWorldDemo.java", "l", "HelloWorldDemo.java",
        "// Title: Hello\n// Summary: one\n// Summary: two\n// Expect: x\n// Expect: y\n// Explain: because\n"
            + "// Explain: reasons\n" + BODY);
    assertEquals("hello-world-demo", s.id());
    assertEquals("Hello", s.title());
    assertEquals("one two", s.summary());
    assertEquals("x\ny\n", s.expectedOutput());
    assertEquals("because reasons", s.explanation());
    assertEquals(BODY, s.source());
  }

  @Test
  void a_missing_title_or_expectation_or_an_unknown_header_names_the_file() {
    assertEquals("snippets/l/A.java: missing '// Title:' header line", assertThrows(LessonFormatException.class,
        () -> SnippetCatalog.parse("snippets/l/A.java", "l", "A.java", "// Expect: x\n" + BODY)).getMessage());
    assertEquals("snippets/l/A.java: missing '// Expect:' header lines (the output the snippet prints)",
        assertThrows(LessonFormatException.class,
            () -> SnippetCatalog.parse("snippets/l/A.java", "l", "A.java", "// Title: A\n" + BODY)).getMessage());
    assertEquals("snippets/l/A.java: line 2: unknown header 'Expected:'; known headers: Title, Summary, Expect, Explain, Knob",
        assertThrows(LessonFormatException.class, () -> SnippetCatalog.parse("snippets/l/A.java", "l", "A.java",
            "// Title: A\n// Expected: x\n" + BODY)).getMessage());
  }

  @Test
  void snippet_ids_are_unique_over_all_lessons(@TempDir Path root) throws Exception {
    for (String lesson : new String[] {"one", "two"}) {
      Files.createDirectories(root.resolve(lesson));
      Files.writeString(root.resolve(lesson).resolve("SameDemo.java"), "// Title: T\n// Expect: x\n" + BODY);
    }
    assertEquals("snippets/two/SameDemo.java: snippet id 'same-demo' is already used by snippets/one/SameDemo.java; "
        + "snippet ids must be unique over all lessons",
        assertThrows(LessonFormatException.class, () -> SnippetCatalog.load(root)).getMessage());
  }
}
