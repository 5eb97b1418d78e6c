package lab.exactlyonce.web;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One style for the messages a user reads: every refusal the server writes is a fragment (lower case, no full stop),
 * and a page that shows one on its own shows it as a sentence ({@link Sentence}).
 */
class MessageStyleTest {
  /** The message literal a 4xx answer is built with: {@code new BadRequestResponse("...")} and its kin. */
  private static final Pattern REFUSAL = Pattern.compile("new [A-Za-z]+Response\\(\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  @Test
  void every_refusal_in_the_code_is_a_lower_case_fragment_without_a_full_stop() throws IOException {
    List<String> outliers = new ArrayList<>();
    int seen = 0;
    try (Stream<Path> files = Files.walk(Path.of("server/src/main/java"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Matcher m = REFUSAL.matcher(Files.readString(file));
        while (m.find()) {
          String message = m.group(1);
          if (message.isEmpty()) continue;
          seen++;
          if (Character.isUpperCase(message.charAt(0)) || message.endsWith(".")) outliers.add(file.getFileName() + ": " + message);
        }
      }
    }
    assertTrue(seen >= 30, "found " + seen + " refusals: the pattern no longer matches how they are written");
    assertEquals(List.of(), outliers);
  }

  @Test
  void a_fragment_shown_on_its_own_reads_as_a_sentence() {
    assertEquals("No page at /x.", Sentence.of("no page at /x"));
    assertEquals("'source' is required.", Sentence.of("'source' is required"));
    assertEquals("Too many share links from your address; try again in 3 s.", Sentence.of("too many share links from your address; try again in 3 s"));
    assertEquals("Already a sentence.", Sentence.of("Already a sentence."));
    assertEquals("Is it (here)", Sentence.of("is it (here)"));
  }
}
