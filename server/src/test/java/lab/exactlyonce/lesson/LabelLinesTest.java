package lab.exactlyonce.lesson;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LabelLinesTest {
  @Test
  void short_labels_stay_on_one_line() {
    assertEquals(List.of("Payment API"), LabelLines.wrap("Payment API", 19, 3));
  }

  @Test
  void long_labels_break_at_spaces() {
    assertEquals(List.of("Billing consumer", "(read_committed)"), LabelLines.wrap("Billing consumer (read_committed)", 19, 3));
  }

  @Test
  void explicit_line_breaks_are_kept() {
    assertEquals(List.of("Line one", "line two"), LabelLines.wrap("Line one\nline two", 19, 3));
  }

  @Test
  void a_word_longer_than_a_line_stays_whole() {
    assertEquals(List.of("isolation.level=read_committed", "fetch"), LabelLines.wrap("isolation.level=read_committed fetch", 19, 3));
  }

  @Test
  void text_beyond_the_last_line_is_cut_with_an_ellipsis() {
    assertEquals(List.of("one two", "three four", "five six…"),
        LabelLines.wrap("one two three four five six seven eight", 10, 3));
  }
}
