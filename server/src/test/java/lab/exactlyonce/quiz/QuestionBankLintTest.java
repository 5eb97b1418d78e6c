package lab.exactlyonce.quiz;

import lab.exactlyonce.exercise.ExerciseCatalog;
import lab.exactlyonce.exercise.ExerciseStarters;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The bundled lesson's quiz passes the bank linter; a bank with any one kind of giveaway fails it. */
class QuestionBankLintTest {
  private static final Path FIXTURE = Path.of("server/src/test/resources/quiz-fixture");

  /** The lesson's questions that need no sandbox run, and what the linter needs to know about them. */
  record Linted(List<Question> questions, BankLinter.Context context) {
    List<String> problems() {
      return BankLinter.problems(questions, context);
    }
  }

  static Linted load(Path lessons, Path snippets, String lessonId) {
    SnippetCatalog snippetCatalog = SnippetCatalog.load(snippets);
    LessonCatalog catalog = LessonCatalog.load(lessons, snippetCatalog::idsIn);
    QuestionBank bank = new QuestionBank(catalog, lessons, snippets,
        id -> snippetCatalog.find(id).map(Snippet::knobs).orElse(List.of()), null,
        new VerdictQuestions(new ExerciseStarters(ExerciseCatalog.load(snippets), null), null));
    Lesson lesson = catalog.require(lessonId);
    LessonItems items = new LessonItems(lesson);
    String text;
    try {
      text = Files.readString(lessons.resolve(lessonId).resolve("lesson.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Linted(bank.fromText(lessonId), new BankLinter.Context(bank::idea,
        q -> items.find(q.item()).map(LessonItems.Item::kind).orElse("none"), text));
  }

  /** The lessons the app ships, one folder each under {@code lessons/}. */
  static Stream<String> bundledLessons() throws IOException {
    try (Stream<Path> folders = Files.list(Path.of("lessons"))) {
      return folders.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("bundledLessons")
  void a_bundled_lesson_passes_every_rule(String lesson) throws IOException {
    Linted bundled = load(Path.of("lessons"), Path.of("snippets"), lesson);
    assertEquals(List.of(), bundled.problems());
    long written = bundled.questions().stream().filter(q -> !q.selfGraded() && q.kind() != Question.Kind.ORDER).count();
    assertTrue(written >= 25, "a written question for each key idea, misconception, failure mode and table row: " + written);
  }

  static Stream<Arguments> giveaways() {
    return Stream.of(
        arguments("the answer's words in the prompt", choice("Which tool repeats a payment safely with a key?",
            "Idempotency key", "[Dedupe table, Upsert]"), "mini/q1: the prompt, detail or topic shares the answer's own words [key]"),
        arguments("two options", choice("Which tool repeats a payment safely?", "Idempotency key", "[Upsert]"),
            "lessons/mini/questions.yaml: questions[0].wrong: needs 2 to 3 wrong options, got 1"),
        arguments("a recorded run's message question with one wrong option", choice("Which tool repeats a payment safely?",
            "Idempotency key", "[Dedupe table, Upsert]") + "realRunMessages:\n  - {run: fencing, wrong: [The request timed out.]}\n",
            "lessons/mini/questions.yaml: realRunMessages[0].wrong: needs 2 to 3 wrong options, got 1"),
        arguments("a topic that names the claim's kind", """
              - {id: q1, about: myth-once, topic: myths, kind: true-false, statement: A resend can copy a message., answer: true, explanation: Yes.}
              - {id: q2, about: idea-retry, topic: myths, kind: true-false, statement: Nothing is ever sent twice., answer: false, explanation: No.}
            """, "mini/q1: the topic 'Myths' says what kind of claim it is"),
        arguments("every statement about key ideas true", """
              - {id: q1, about: idea-retry, topic: retries, kind: true-false, statement: A resend can copy a message., answer: true, explanation: Yes.}
              - {id: q2, about: idea-retry, topic: sending, kind: true-false, statement: A resent message may arrive again., answer: true, explanation: Yes.}
            """, "the kind of lesson item 'key idea' has 2 true and 0 false statements: the label tells"),
        arguments("a statement copied from the lesson", """
              - {id: q1, about: myth-once, topic: retries, kind: true-false, statement: "Retries deliver a message more than once, always.", answer: false, explanation: Not always.}
            """, "mini/q1: the statement copies the lesson (\"retries deliver a message more than once\"): reword it"),
        arguments("raw Markdown in the feedback", choice("Which tool repeats a payment safely?", "Idempotency key",
            "[Dedupe table, Upsert]").replace("explanation: Because.", "explanation: \"Send `the key.\""),
            "mini/q1: the feedback holds Markdown the quiz shows as plain text: 'Send `the key.'"),
        arguments("an ungrammatical prompt", choice("Which where fits the payment?", "Idempotency key", "[Dedupe table, Upsert]"),
            "mini/q1: the prompt is not correct English: 'Which where fits the payment?'"),
        arguments("two near-duplicates about different ideas", choice("Which tool repeats a payment safely?",
            "Idempotency key", "[Dedupe table, Upsert]") + choice("Which tool repeats a payment safely?", "Upsert",
            "[Dedupe table, Idempotency key]").replace("q1", "q2").replace("t-key", "t-upsert"),
            "mini/q1 and mini/q2 ask nearly the same thing but are different ideas, so one quiz may hold both"));
  }

  private static String choice(String prompt, String right, String wrong) {
    return "  - {id: q1, about: t-key, topic: tools, kind: choice, prompt: \"" + prompt + "\", right: " + right
        + ", wrong: " + wrong + ", explanation: Because.}\n";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("giveaways")
  void a_bank_with_a_giveaway_fails(String giveaway, String questions, String problem, @TempDir Path dir) throws IOException {
    Path lessons = dir.resolve("lessons");
    Files.createDirectories(lessons.resolve("mini"));
    Files.copy(FIXTURE.resolve("lessons/mini/lesson.yaml"), lessons.resolve("mini/lesson.yaml"));
    Files.writeString(lessons.resolve("mini/questions.yaml"), "questions:\n" + questions);
    List<String> problems;
    try {
      problems = load(lessons, FIXTURE.resolve("snippets"), "mini").problems();
    } catch (LessonFormatException refused) {
      problems = List.of(refused.getMessage());
    }
    assertTrue(problems.contains(problem), giveaway + ": " + problems);
  }

  @Test
  void a_bank_about_an_item_the_lesson_lacks_stops_the_server(@TempDir Path dir) throws IOException {
    Path lessons = dir.resolve("lessons");
    Files.createDirectories(lessons.resolve("mini"));
    Files.copy(FIXTURE.resolve("lessons/mini/lesson.yaml"), lessons.resolve("mini/lesson.yaml"));
    Files.writeString(lessons.resolve("mini/questions.yaml"), "questions:\n" + choice("Which tool?", "Upsert", "[A, B]")
        .replace("t-key", "t-nope"));
    LessonFormatException e = assertThrows(LessonFormatException.class, () -> load(lessons, FIXTURE.resolve("snippets"), "mini"));
    assertEquals("lessons/mini/questions.yaml: questions[0].about: no item 't-nope' in lesson 'mini'", e.getMessage());
  }
}
