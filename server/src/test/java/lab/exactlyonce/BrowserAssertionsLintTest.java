package lab.exactlyonce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Browser tests check the page with Playwright's {@code assertThat(locator)}, which retries until the page gets there.
 * A JUnit assertion on a value read from a locator once (its text, an attribute, whether it shows, how many match)
 * checks the page at one instant, however far it has got, and fails when the machine is slow. This lint names each
 * such read, by file and line, in every browser test. A read kept in a variable to compute something is left alone.
 */
class BrowserAssertionsLintTest {
  private static final Path TESTS = Path.of("server/src/test/java");
  private static final Pattern BROWSER_TEST = Pattern.compile(".*Browser(Test|IT)\\.java");
  private static final Pattern ASSERTION = Pattern.compile("\\b(assertEquals|assertNotEquals|assertTrue|assertFalse)\\s*\\(");
  private static final Pattern READ = Pattern.compile(
      "\\.\\s*(textContent|innerText|isVisible|isHidden|isChecked|isEnabled|isDisabled|inputValue|count|allTextContents"
          + "|allInnerTexts)\\s*\\(\\s*\\)|\\.\\s*(getAttribute)\\s*\\(");
  /** A {@code count()} on one of these is a stream's, not a locator's. */
  private static final Pattern STREAM = Pattern.compile("\\bstream\\s*\\(|\\bStream\\s*\\.|\\.\\s*chars\\s*\\(");

  @Test
  void no_browser_test_asserts_on_a_value_read_once_from_the_page() throws IOException {
    List<String> problems = new ArrayList<>();
    try (Stream<Path> files = Files.walk(TESTS)) {
      files.filter(f -> BROWSER_TEST.matcher(f.getFileName().toString()).matches()).sorted().forEach(f -> {
        try {
          problems.addAll(problems(f.toString(), Files.readString(f)));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    assertEquals(List.of(), problems, String.join("\n", problems));
  }

  static Stream<Arguments> sources() {
    return Stream.of(
        arguments("text read once", "assertEquals(\"Right.\", q.locator(\".verdict\").textContent());",
            List.of("T.java:1: assertEquals on textContent() read once: use assertThat(locator).hasText/containsText")),
        arguments("an attribute, the assertion over several lines", "x();\nassertFalse(\n    meter\n        .getAttribute(\"style\")"
                + ".contains(\"0%\"), \"empty\");",
            List.of("T.java:4: assertFalse on getAttribute() read once: use assertThat(locator).hasAttribute")),
        arguments("a count and a visibility in one", "Assertions.assertTrue(rows.count() > 2 && page.locator(\"a\").isVisible());",
            List.of("T.java:1: assertTrue on count() read once: use assertThat(locator).hasCount",
                "T.java:1: assertTrue on isVisible() read once: use assertThat(locator).isVisible")),
        arguments("a stream's count", "assertEquals(0, context.cookies().stream().filter(c -> c.name.equals(\"x\")).count());",
            List.of()),
        arguments("a read kept to compute with", "String code = page.locator(\"#code\").textContent();\n"
            + "assertTrue(code.matches(\"[A-Z]{6}\"), code);", List.of()),
        arguments("Playwright's own assertion", "assertThat(rows).hasCount(page.locator(\"tr\").count());", List.of()),
        arguments("in a comment or a string", "// assertEquals(1, rows.count());\n/* assertTrue(a.isVisible()); */\n"
            + "assertEquals(\"x.textContent()\", label, \"\\\" assertTrue(b.isHidden())\");\n"
            + "assertEquals(\"\"\"\n  a.count()\n  \"\"\", text);", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void the_lint_finds_reads_inside_junit_assertions_only(String what, String source, List<String> expected) {
    assertEquals(expected, problems("T.java", source));
  }

  /** Each JUnit assertion in {@code source} that reads a locator's state inside its arguments, as "file:line: why". */
  static List<String> problems(String file, String source) {
    String code = codeOnly(source);
    List<String> problems = new ArrayList<>();
    Matcher assertion = ASSERTION.matcher(code);
    while (assertion.find()) {
      int end = closingParen(code, assertion.end() - 1);
      Matcher read = READ.matcher(code).region(assertion.end(), end);
      while (read.find()) {
        String method = read.group(1) != null ? read.group(1) : read.group(2);
        if (method.equals("count") && STREAM.matcher(receiver(code, read.start())).find()) continue;
        problems.add(file + ":" + line(code, read.start(1) != -1 ? read.start(1) : read.start(2)) + ": "
            + assertion.group(1) + " on " + method + "() read once: use " + instead(method));
      }
    }
    return problems;
  }

  private static String instead(String method) {
    return switch (method) {
      case "textContent", "innerText", "allTextContents", "allInnerTexts" -> "assertThat(locator).hasText/containsText";
      case "getAttribute" -> "assertThat(locator).hasAttribute";
      case "count" -> "assertThat(locator).hasCount";
      case "inputValue" -> "assertThat(locator).hasValue";
      default -> "assertThat(locator)." + method;
    };
  }

  /** The source with comments and literals blanked out (line breaks kept), so only code is searched. */
  static String codeOnly(String source) {
    StringBuilder out = new StringBuilder(source);
    int i = 0;
    while (i < source.length()) {
      int end;
      if (source.startsWith("//", i)) end = indexOrEnd(source, "\n", i);
      else if (source.startsWith("/*", i)) end = indexOrEnd(source, "*/", i + 2) + 2;
      else if (source.startsWith("\"\"\"", i)) end = literalEnd(source, i + 3, "\"\"\"");
      else if (source.charAt(i) == '"') end = literalEnd(source, i + 1, "\"");
      else if (source.charAt(i) == '\'') end = literalEnd(source, i + 1, "'");
      else {
        i++;
        continue;
      }
      end = Math.min(end, source.length());
      for (int k = i; k < end; k++) if (source.charAt(k) != '\n') out.setCharAt(k, ' ');
      i = end;
    }
    return out.toString();
  }

  private static int indexOrEnd(String s, String what, int from) {
    int at = s.indexOf(what, from);
    return at < 0 ? s.length() : at;
  }

  /** The index just past the literal's closing {@code quote}, skipping escaped characters. */
  private static int literalEnd(String s, int from, String quote) {
    for (int i = from; i < s.length(); i++) {
      if (s.charAt(i) == '\\') i++;
      else if (s.startsWith(quote, i)) return i + quote.length();
    }
    return s.length();
  }

  private static int closingParen(String code, int open) {
    int depth = 0;
    for (int i = open; i < code.length(); i++) {
      if (code.charAt(i) == '(') depth++;
      else if (code.charAt(i) == ')' && --depth == 0) return i;
    }
    return code.length();
  }

  /** The expression before the {@code .} at {@code dot}: a chain of names, calls and dots. */
  private static String receiver(String code, int dot) {
    int depth = 0;
    int i = dot - 1;
    for (; i >= 0; i--) {
      char c = code.charAt(i);
      if (c == ')' || c == ']') depth++;
      else if (c == '(' || c == '[') {
        if (depth == 0) break;
        depth--;
      } else if (depth == 0 && !Character.isJavaIdentifierPart(c) && c != '.' && !Character.isWhitespace(c)) break;
    }
    return code.substring(i + 1, dot);
  }

  private static int line(String code, int at) {
    int line = 1;
    for (int i = 0; i < at; i++) if (code.charAt(i) == '\n') line++;
    return line;
  }
}
