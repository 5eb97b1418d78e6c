package lab.exactlyonce.lesson;

import lab.exactlyonce.App;
import lab.exactlyonce.Config;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** A broken lesson stops the app with one line naming file, line, field and problem; a new lesson needs no code. */
class LessonValidationTest {

  static Stream<Arguments> broken() {
    return Stream.of(
        arguments("yaml-syntax", "lessons/demo/lesson.yaml:8: not valid YAML: while parsing a block collection; expected <block end>, but found '<block mapping start>'"),
        arguments("unknown-field", "lessons/demo/lesson.yaml:12: sections[0].blocks[0].colour: unknown field 'colour'"),
        arguments("missing-field", "lessons/demo/lesson.yaml:9: sections[0].blocks[0]: missing required field 'title'"),
        arguments("unknown-kind", "lessons/demo/lesson.yaml:9: sections[0].blocks[0]: unknown kind 'video'; known kinds: "
            + "text, steps, table, cards, pairs, compare, questions, scenario, exercise, snippet, note"),
        arguments("duplicate-id", "lessons/demo/lesson.yaml:20: sections[1].blocks[0].items[1].id: id 'intro' is already "
            + "used at sections[0].blocks[0].id (line 10); ids must be unique in the lesson"),
        arguments("dangling-edge", "lessons/demo/lesson.yaml:16: maps[0].edges[1].to: no node 'billing' in map 'arch'"),
        arguments("dangling-flow-step", "lessons/demo/lesson.yaml:17: flows[0].steps[0].next[1].to: no step 'abort' in flow 'two-phase'"),
        arguments("dangling-rephrasing", "lessons/demo/lesson.yaml:21: sections[0].blocks[1].items[0].rephrases: no ladder "
            + "question 'L2' in lesson 'demo'"),
        arguments("unknown-style", "lessons/demo/lesson.yaml:11: sections[0].blocks[0].style: 'style' must be ladder or "
            + "interview, got 'quiz'"),
        arguments("id-mismatch", "lessons/demo/lesson.yaml:2: id: must match the folder name 'demo', got 'demo-lesson'"),
        arguments("missing-snippet", "lessons/exactly-once/lesson.yaml:10: sections[0].blocks[1].snippet: no snippet "
            + "'crash-demo' in snippets/exactly-once/ (snippets there: sink-demo, txn-dedupe-demo)"),
        arguments("unknown-topic", "lessons/demo/lesson.yaml:17: sections[0].blocks[0].items[0].topic: no topic 'latency' "
            + "in 'topics'; topics: sinks"),
        arguments("missing-topic", "lessons/demo/lesson.yaml:15: flows[0]: missing required field 'topic' (one of: sinks)"),
        arguments("no-topics", "lessons/demo/lesson.yaml:2: missing required field 'topics' (the lesson's topic vocabulary: "
            + "id and title of each)")
    );
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("broken")
  void a_broken_lesson_stops_start_up_with_one_line(String folder, String message) {
    Config config = TestConfig.defaults().withLessonsDir(resource("broken-lessons/" + folder));
    LessonFormatException e = assertThrows(LessonFormatException.class, () -> new App(config));
    assertEquals(message, e.getMessage());
  }

  @Test
  void a_second_lesson_folder_is_served_without_code_changes() {
    try (TestServer server = TestServer.start(TestConfig.defaults().withLessonsDir(resource("extra-lessons")))) {
      var page = server.get("/lessons/kafka-basics");
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("<h1>Kafka Basics</h1>"), page.body());
      assertTrue(page.body().contains("<li class=\"ladder-item\" id=\"qa/KB1\""), page.body());
      assertTrue(page.body().contains("<strong>offset</strong>"), page.body());
      assertTrue(server.get("/").body().contains("<a href=\"/lessons/kafka-basics\">Kafka Basics</a>"));
      assertTrue(server.get("/api/lessons").body().contains("\"id\":\"kafka-basics\""));
      assertEquals(404, server.get("/lessons/exactly-once").statusCode(), "only the configured folder is served");
    }
  }

  static Path resource(String name) {
    try {
      return Path.of(LessonValidationTest.class.getResource("/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
