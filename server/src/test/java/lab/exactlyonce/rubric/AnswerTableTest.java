package lab.exactlyonce.rubric;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import lab.exactlyonce.ContentFolder;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scorer on typed answers its rules were not written from, in three files of this test's resources, each by a
 * writer who never saw the rules: {@code answers-table} was written before them and the rules were tuned on it,
 * {@code answers-heldout} too and was read only for the failures it showed, {@code answers-fresh} was written after
 * them and scored once before any change. For every rubric question: right answers in different words, terse ones
 * and ones that refute a misconception among them, and wrong answers that use the right vocabulary. No wrong answer
 * may be told Good, no right answer Again (or sent back unscored); right answers make at least 0.8 of the points on
 * average and wrong ones at most 0.5.
 */
class AnswerTableTest {
  private static final Path LESSONS = ContentFolder.resolve(Optional.empty(), "lessons");
  private static final RubricCatalog RUBRICS = RubricCatalog.load(LESSONS, LessonCatalog.load(LESSONS,
      SnippetCatalog.load(ContentFolder.resolve(Optional.empty(), "snippets"))::idsIn));

  record Table(List<Entry> answers) {}

  record Entry(String question, List<String> right, List<String> wrong) {}

  /** Per lesson, its three files and the prefix of its interview questions, which share the ladder's rubrics. */
  static Stream<Arguments> files() {
    return Stream.of("table", "heldout", "fresh").flatMap(set -> Stream.of(
        Arguments.of("exactly-once", "answers-" + set + ".yaml", "iq"),
        Arguments.of("outbox", "outbox-answers-" + set + ".yaml", "OI")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("files")
  void right_answers_are_credited_and_wrong_ones_are_not(String lesson, String file, String interview) throws IOException {
    Table table = read(file);
    assertEquals(RUBRICS.questions(lesson).stream().filter(q -> !q.startsWith(interview)).sorted().toList(),
        table.answers().stream().map(Entry::question).sorted().toList(), "every rubric question has answers");
    List<String> problems = new ArrayList<>();
    double rightPoints = 0;
    double wrongPoints = 0;
    int rights = 0;
    int wrongs = 0;
    for (Entry entry : table.answers()) {
      assertTrue(entry.right().size() >= 3 && entry.wrong().size() >= 3, entry.question() + ": three of each");
      for (String answer : entry.right()) {
        AnswerScore score = score(lesson, entry.question(), answer);
        rights++;
        rightPoints += share(score);
        if (!score.scored() || score.suggested() == 1) problems.add(describe("right answer told Again", score, answer));
      }
      for (String answer : entry.wrong()) {
        AnswerScore score = score(lesson, entry.question(), answer);
        wrongs++;
        wrongPoints += share(score);
        if (score.suggested() == 3) problems.add(describe("wrong answer told Good", score, answer));
      }
    }
    double right = rightPoints / rights;
    double wrong = wrongPoints / wrongs;
    String summary = String.format(Locale.ROOT, "%s: right answers %.2f of the points, wrong %.2f", file, right, wrong);
    assertAll(
        () -> assertTrue(problems.isEmpty(), summary + "\n" + String.join("\n", problems)),
        () -> assertTrue(right >= 0.8, summary),
        () -> assertTrue(wrong <= 0.5, summary));
  }

  private static AnswerScore score(String lesson, String question, String answer) {
    return RUBRICS.score(lesson, question, answer).orElseThrow();
  }

  private static double share(AnswerScore score) {
    int total = score.hit().size() + score.missed().size();
    return total == 0 ? 0 : (double) score.hit().size() / total;
  }

  private static String describe(String problem, AnswerScore score, String answer) {
    return problem + " [" + score.question() + "] " + score.note() + " missed " + score.missed()
        + (score.misconceptions().isEmpty() ? "" : " states " + score.misconceptions().stream()
            .map(AnswerScore.Stated::evidence).toList()) + ": " + answer;
  }

  private static Table read(String file) throws IOException {
    try (InputStream in = AnswerTableTest.class.getResourceAsStream(file)) {
      return new ObjectMapper(new YAMLFactory()).readValue(in, Table.class);
    }
  }
}
