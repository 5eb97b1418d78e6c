package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled lessons' topic vocabularies: a short list each, no two titles a learner could mistake for one another
 * (across lessons too, since the quiz across every lesson lists them all), and every topic with questions in it.
 */
class TopicVocabularyTest {
  private static final Path LESSONS = Path.of("lessons");
  private static final Path SNIPPETS = Path.of("snippets");
  /** Below this share of edits two titles read as one (for example "Dedupe" and "Dedupes"). */
  private static final double NEAR = 0.34;
  private static final Set<String> STOP_WORDS = Set.of("the", "and", "with", "from", "into", "over", "that", "what",
      "when", "other", "their", "your");

  private static List<Lesson> lessons() {
    return LessonCatalog.load(LESSONS, SnippetCatalog.load(SNIPPETS)::idsIn).all();
  }

  @Test
  void each_lesson_has_a_short_vocabulary() {
    for (Lesson lesson : lessons()) {
      int size = lesson.topics().size();
      assertTrue(size >= 6 && size <= 10, lesson.id() + " has " + size + " topics; a lesson groups into 6 to 10");
    }
  }

  @Test
  void no_two_topic_titles_are_near_duplicates() {
    List<String> titles = new ArrayList<>();
    for (Lesson lesson : lessons()) lesson.topics().forEach(t -> titles.add(t.title()));
    assertEquals(List.of(), nearDuplicates(titles));
  }

  @Test
  void the_near_duplicate_check_catches_the_kinds_the_old_lists_had() {
    assertEquals(List.of("'Dedupe' and 'Dedupes': nearly the same words"), nearDuplicates(List.of("Dedupe", "Dedupes")));
    assertEquals(List.of("'Two relays to the broker' and 'Why every relay is at-least-once': both about [relay]"),
        nearDuplicates(List.of("Two relays to the broker", "Why every relay is at-least-once")));
    assertEquals(List.of("'Two-phase commit' and 'A two-phase sink': both about [phase]"),
        nearDuplicates(List.of("Two-phase commit", "A two-phase sink")));
    assertEquals(List.of(), nearDuplicates(List.of("Sink strategies", "Side effects", "Crash recovery")));
  }

  @Test
  void every_topic_has_questions_and_every_question_a_topic_of_its_lesson() {
    for (Lesson lesson : lessons()) {
      List<Question> questions = QuestionBankLintTest.load(LESSONS, SNIPPETS, lesson.id()).questions();
      Map<String, Integer> count = new LinkedHashMap<>();
      lesson.topics().forEach(t -> count.put(t.title(), 0));
      for (Question q : questions) {
        assertTrue(count.containsKey(q.topic()), q.id() + ": topic '" + q.topic() + "' is not in the vocabulary");
        count.merge(q.topic(), 1, Integer::sum);
      }
      count.forEach((topic, n) -> assertTrue(n >= 2, lesson.id() + ": topic '" + topic + "' has " + n
          + " questions from the lesson text; questions per topic: " + count));
    }
  }

  /** Pairs of titles that differ by a few letters, or that share a word's stem. */
  static List<String> nearDuplicates(List<String> titles) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < titles.size(); i++) {
      for (int j = i + 1; j < titles.size(); j++) {
        String a = normalise(titles.get(i));
        String b = normalise(titles.get(j));
        Set<String> shared = new LinkedHashSet<>(stems(a));
        shared.retainAll(stems(b));
        if ((double) distance(a, b) / Math.max(a.length(), b.length()) < NEAR) {
          out.add("'" + titles.get(i) + "' and '" + titles.get(j) + "': nearly the same words");
        } else if (!shared.isEmpty()) {
          out.add("'" + titles.get(i) + "' and '" + titles.get(j) + "': both about " + shared.stream().sorted().toList());
        }
      }
    }
    return out;
  }

  private static String normalise(String title) {
    return title.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]+", " ").replaceAll(" +", " ").strip();
  }

  /** Each word of four letters or more, cut to five: "relays" and "relay" meet at "relay". */
  private static Set<String> stems(String normalised) {
    Set<String> out = new LinkedHashSet<>();
    for (String word : normalised.split(" ")) {
      if (word.length() >= 4 && !STOP_WORDS.contains(word)) out.add(word.substring(0, Math.min(5, word.length())));
    }
    return out;
  }

  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) previous[j] = j;
    for (int i = 1; i <= a.length(); i++) {
      int[] current = new int[b.length() + 1];
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      previous = current;
    }
    return previous[b.length()];
  }
}
