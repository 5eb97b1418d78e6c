package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.snippet.SnippetCatalog;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A new lesson gets a quiz from its data alone; the questions are the same every time. */
class QuestionGeneratorTest {
  private static final Path FIXTURE = Path.of("server/src/test/resources/quiz-fixture");
  private final Lesson mini = LessonCatalog.load(FIXTURE.resolve("lessons"), SnippetCatalog.load(FIXTURE.resolve("snippets"))::idsIn).require("mini");
  private final List<Question> questions = new QuestionGenerator().generate(mini);

  private Question byId(String id) {
    return questions.stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError("no " + id
        + " among " + questions.stream().map(Question::id).toList()));
  }

  @Test
  void a_new_lesson_gets_every_kind_of_question_with_stable_ids_and_links() {
    assertEquals(List.of("mini/t-key", "mini/t-dedupe", "mini/t-upsert", "mini/f-double", "mini/f-lost", "mini/myth-once",
        "mini/R1", "mini/idea-retry", "mini/retry-flow/done", "mini/retry-flow/resend"),
        questions.stream().map(Question::id).toList());
    Map<String, Question.Kind> kinds = questions.stream().collect(Collectors.toMap(Question::id, Question::kind));
    assertEquals(Question.Kind.CHOICE, kinds.get("mini/t-key"));
    assertEquals(Question.Kind.CHOICE, kinds.get("mini/f-double"));
    assertEquals(Question.Kind.TRUE_FALSE, kinds.get("mini/myth-once"));
    assertEquals(Question.Kind.TRUE_FALSE, kinds.get("mini/idea-retry"));
    assertEquals(Question.Kind.SELF_GRADED, kinds.get("mini/R1"));
    assertEquals(Question.Kind.ORDER, kinds.get("mini/retry-flow/resend"));
    assertEquals("/lessons/mini#gist/t-key", byId("mini/t-key").link());
    assertEquals("/lessons/mini#qa/R1", byId("mini/R1").link());
    assertEquals("/lessons/mini#maps/flow/retry-flow", byId("mini/retry-flow/done").link());
    assertEquals("Retries", byId("mini/R1").topic());
    assertEquals("Basics", byId("mini/t-key").topic());
  }

  @Test
  void a_table_row_asks_which_first_column_entry_fits_its_second_and_last_columns() {
    Question q = byId("mini/t-dedupe");
    assertEquals("Which tool fits?", q.prompt());
    assertEquals("Use: Drop a message seen before\nExample: A seen-set of ids", q.detail());
    assertEquals(List.of("Dedupe table", "Idempotency key", "Upsert"), q.options().stream().sorted().toList());
    assertEquals("Dedupe table", q.expected());
  }

  @Test
  void a_card_shows_its_body_and_asks_for_its_title() {
    Question q = byId("mini/f-lost");
    assertEquals("Which of the failures is this?", q.prompt());
    assertEquals("The message was acknowledged before it was processed.", q.detail());
    assertEquals("Lost message", q.expected());
    assertEquals(2, q.options().size());
  }

  @Test
  void a_myth_is_false_with_its_correction_and_a_key_idea_is_true() {
    Question myth = byId("mini/myth-once");
    assertEquals(List.of("True", "False"), myth.options());
    assertEquals("False", myth.expected());
    assertEquals("Truth: It may; make the effect idempotent.", myth.explanation());
    assertEquals("True", byId("mini/idea-retry").expected());
  }

  @Test
  void a_flow_gives_one_ordering_per_end_shuffled_but_never_in_order() {
    Question resend = byId("mini/retry-flow/resend");
    assertEquals("Send → Wait for the ack → Send again", resend.expected());
    assertNotEquals(List.of("Send", "Wait for the ack", "Send again"), resend.options());
    assertEquals("Send → Wait for the ack → Done", byId("mini/retry-flow/done").expected());
  }

  @Test
  void generating_twice_gives_identical_questions() {
    assertEquals(questions, new QuestionGenerator().generate(mini));
  }

  @Test
  void beside_a_written_bank_the_kinds_a_pattern_answers_are_not_generated() {
    Lesson lesson = LessonCatalog.load(Path.of("lessons"), SnippetCatalog.load(Path.of("snippets"))::idsIn).require("exactly-once");
    List<Question> generated = new QuestionGenerator().generate(lesson, false);
    assertEquals(List.of(), generated.stream().filter(q -> q.kind() == Question.Kind.TRUE_FALSE || q.kind() == Question.Kind.CHOICE)
        .map(Question::id).toList(), "no myth or key-idea true/false, no table or card choice");
    assertTrue(generated.stream().anyMatch(q -> q.id().equals("exactly-once/L1")), "the ladder stays self-graded");
    assertTrue(generated.stream().anyMatch(q -> q.id().equals("exactly-once/trap-shared-txn-id")), "traps stay self-graded");
    assertTrue(generated.stream().anyMatch(q -> q.kind() == Question.Kind.ORDER), "flows stay ordering questions");
  }

  @Test
  void snippet_parameters_are_found_and_varied_one_at_a_time() throws Exception {
    String source = Files.readString(FIXTURE.resolve("snippets/mini/CounterDemo.java"));
    assertEquals(Map.of("LIMIT", 3L), SnippetVariants.parameters(source, List.of()));
    List<SnippetVariants.Variant> variants = SnippetVariants.of(source, List.of());
    assertEquals(List.of("default", "limit-1", "limit-2", "limit-4", "limit-5"), variants.stream().map(SnippetVariants.Variant::id).toList());
    assertTrue(variants.get(3).source().contains("static final int LIMIT = 4;"));
    assertEquals(List.of(15L, 30L, 90L, 120L), SnippetVariants.valuesAround(60));
  }

  @Test
  void predict_questions_take_the_answer_from_the_run_and_wrong_options_from_other_runs() throws Exception {
    String source = Files.readString(FIXTURE.resolve("snippets/mini/CounterDemo.java"));
    Section section = mini.sections().get(2);
    Block.Snippet block = (Block.Snippet) section.blocks().get(0);
    List<OutputQuestions.Run> runs = SnippetVariants.of(source, List.of()).stream()
        .map(v -> new OutputQuestions.Run(v, List.of("count=" + v.values().get("LIMIT"), "done"))).toList();
    List<Question> predicted = OutputQuestions.build(mini, section, block, source, List.of(), null, runs);
    assertEquals(5, predicted.size(), "one question per run for line 1; line 2 never changes");
    Question q = predicted.get(3);
    assertEquals("mini/run-counter/limit-4-line-1", q.id());
    assertEquals("“A counter” runs with LIMIT = 4 (the demo uses 3). What does line 1 print?", q.prompt());
    assertEquals("count=4", q.expected());
    assertEquals(4, q.options().size());
    assertTrue(q.options().stream().allMatch(o -> o.matches("count=[1-5]")));
    assertEquals("/lessons/mini#sandbox/counter-demo", q.link());
  }
}
