package lab.exactlyonce.rubric;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.lesson.LessonFormatException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Each kind of broken rubric stops the app at start with one line naming file, line, field and problem. */
class RubricValidationTest {
  private static final String LESSON = """
      id: demo
      title: Demo
      summary: A lesson to hang rubrics on.
      topics:
        - {id: ordering, title: Ordering}
      sections:
        - id: questions
          tab: qa
          title: Questions
          topic: ordering
          blocks:
            - kind: questions
              id: ladder
              style: ladder
              items:
                - { id: D1, level: L1, question: "What orders records in a partition?", answer: The offset. }
            - kind: questions
              id: interview
              style: interview
              items:
                - { id: D2, rephrases: D1, question: "Which number puts records in order?", answer: The offset. }
            - kind: scenario
              id: sc
              prompt: A consumer restarts.
              questions:
                - { id: S1, area: Data, question: "Where does it resume?", answer: At its committed offset. }
      """;

  static Stream<Arguments> broken() {
    return Stream.of(
        arguments("unknown question", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, phrases: [partition offset] }]
              - question: D9
                points: [{ id: offset, label: Offset, phrases: [partition offset] }]
            """, "lessons/demo/rubrics.yaml:4: rubrics[1].question: no ladder, interview or scenario question 'D9' in "
            + "lesson 'demo' (questions there: D1, D2, S1)"),
        arguments("second rubric for a question", """
            rubrics:
              - question: S1
                points: [{ id: offset, label: Offset, phrases: [stored offset] }]
              - question: S1
                points: [{ id: committed, label: Committed, phrases: [last committed] }]
            """, "lessons/demo/rubrics.yaml:4: rubrics[1].question: question 'S1' already has a rubric at rubrics[0] "
            + "(line 2); one rubric per question"),
        arguments("no points", """
            rubrics:
              - question: D1
                points: []
            """, "lessons/demo/rubrics.yaml:2: rubrics[0]: 'points' needs at least one key point"),
        arguments("a point without phrases", """
            rubrics:
              - question: D1
                points:
                  - { id: offset, label: Offset }
            """, "lessons/demo/rubrics.yaml:4: rubrics[0].points[0]: the point 'offset' needs 'phrases' or 'together' "
            + "to say what makes it"),
        arguments("a point without an id", """
            rubrics:
              - question: D1
                points:
                  - { label: Offset, phrases: [partition offset] }
            """, "lessons/demo/rubrics.yaml:4: rubrics[0].points[0]: missing required field 'id'"),
        arguments("a phrase with no words", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, phrases: [partition offset, "--"] }]
            """, "lessons/demo/rubrics.yaml:3: rubrics[0].points[0]: the point 'offset' has a phrase with no words in "
            + "'phrases': '--'"),
        arguments("one common word makes a point alone", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, phrases: [partition offset, the offset] }]
            """, "lessons/demo/rubrics.yaml:3: rubrics[0].points[0].phrases[1]: the phrase 'the offset' is one word "
            + "(once words such as 'the' or 'is' are left out), which would make the point 'Offset' alone, and every "
            + "answer on the topic uses such words; give a phrase of two or more words, or name what it must stand "
            + "with under 'together'"),
        arguments("one group under together", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, together: [[offset, position]] }]
            """, "lessons/demo/rubrics.yaml:3: rubrics[0].points[0]: the point 'offset' has one group in 'together'; "
            + "it needs two or more that must stand together (a single group belongs in 'phrases')"),
        arguments("two points with one id", """
            rubrics:
              - question: D1
                points:
                  - { id: offset, label: Offset, phrases: [partition offset] }
                  - { id: offset, label: Position, phrases: [log position] }
            """, "lessons/demo/rubrics.yaml:5: rubrics[0].points[1].id: the id 'offset' is already used by "
            + "rubrics[0].points[0]; each key point needs its own id"),
        arguments("two points with one label", """
            rubrics:
              - question: D1
                points:
                  - { id: offset, label: Offset, phrases: [partition offset] }
                  - { id: position, label: offset, phrases: [log position] }
            """, "lessons/demo/rubrics.yaml:5: rubrics[0].points[1].label: the label 'offset' is already used by "
            + "rubrics[0].points[0]; each key point needs its own label"),
        arguments("a misconception voids a point the rubric lacks", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, phrases: [partition offset] }]
                misconceptions:
                  - { id: time, says: Records are not ordered by time., phrases: [ordered by time], voids: [clock] }
            """, "lessons/demo/rubrics.yaml:5: rubrics[0].misconceptions[0].voids[0]: no key point 'clock' in this "
            + "rubric (its points: offset)"),
        arguments("the question makes the point", """
            rubrics:
              - question: D1
                points:
                  - { id: offset, label: Offset, phrases: [partition offset, ordered records] }
            """, "lessons/demo/rubrics.yaml:4: rubrics[0].points[0].phrases: the text of question 'D1' already "
            + "makes the point 'Offset' (its words \"orders records\"); a point must need words the candidate adds"),
        arguments("the rephrased question makes a shared point", """
            rubrics:
              - question: D1
                points:
                  - { id: offset, label: Offset, together: [[number], [order, orders]] }
            """, "lessons/demo/rubrics.yaml:4: rubrics[0].points[0].phrases: the text of question 'D2' already "
            + "makes the point 'Offset' (its words \"number puts records in order\"); a point must need words the "
            + "candidate adds"),
        arguments("the scenario's prompt makes the point", """
            rubrics:
              - question: S1
                points: [{ id: restart, label: Restart, phrases: [restarted consumer] }]
            """, "lessons/demo/rubrics.yaml:3: rubrics[0].points[0].phrases: the text of question 'S1' already "
            + "makes the point 'Restart' (its words \"consumer restarts\"); a point must need words the candidate "
            + "adds"),
        arguments("the question states a misconception", """
            rubrics:
              - question: D1
                points: [{ id: offset, label: Offset, phrases: [partition offset] }]
                misconceptions:
                  - { id: records, says: Offsets order them., phrases: [orders records], voids: [offset] }
            """, "lessons/demo/rubrics.yaml:5: rubrics[0].misconceptions[0].phrases: the text of question 'D1' "
            + "already states the misconception 'records'; pasting the question back would be told so"),
        arguments("unknown field", """
            rubrics:
              - question: D1
                weight: 2
                points: [{ id: offset, label: Offset, phrases: [partition offset] }]
            """, "lessons/demo/rubrics.yaml:3: rubrics[0].weight: unknown field 'weight'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("broken")
  void a_broken_rubric_stops_start_up_with_one_line(String name, String rubrics, String message, @TempDir Path lessons)
      throws IOException {
    Path demo = Files.createDirectories(lessons.resolve("demo"));
    Files.writeString(demo.resolve("lesson.yaml"), LESSON);
    Files.writeString(demo.resolve("rubrics.yaml"), rubrics);
    Config config = TestConfig.defaults().withLessonsDir(lessons);
    LessonFormatException e = assertThrows(LessonFormatException.class, () -> new App(config));
    assertEquals(message, e.getMessage());
  }
}
