package lab.exactlyonce.lesson;

import lab.exactlyonce.ServerTest;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MapRoutesTest extends ServerTest {
  private final Lesson lesson = MapsFixture.lesson();

  @Override
  protected TestServer startServer() {
    return MapsFixture.server();
  }

  @Test
  void the_first_map_is_served_as_mermaid_text_for_download() {
    var res = server.get("/api/lessons/exactly-once/map.mmd");

    assertEquals(200, res.statusCode());
    assertEquals("text/plain;charset=utf-8",
        res.headers().firstValue("Content-Type").orElseThrow().replace(" ", "").toLowerCase(Locale.ROOT));
    assertEquals("attachment; filename=\"exactly-once-architecture.mmd\"",
        res.headers().firstValue("Content-Disposition").orElseThrow());
    assertEquals(MermaidExport.of(lesson.maps().get(0)), res.body());
    assertTrue(res.body().startsWith("flowchart LR\n  %% Orders to billing and payments\n  orders[(\"Orders topic (replayable source)\")]\n"),
        res.body());
    assertTrue(res.body().contains("\n  sink -->|\"transactional writes\"| billing_topic\n"), res.body());
  }

  @Test
  void map_parameter_picks_another_map() {
    var res = server.get("/api/lessons/exactly-once/map.mmd?map=lesson-map");

    assertEquals(200, res.statusCode());
    assertEquals("attachment; filename=\"exactly-once-lesson-map.mmd\"",
        res.headers().firstValue("Content-Disposition").orElseThrow());
    assertEquals("""
        flowchart LR
          %% Lesson map
          off("1. Offsets and state in checkpoint n")
          txn("2. Open txn, pre-commit on barrier")
          commit_node("3. Ack, then commit T_n")
          abort_node("4. Crash: abort T_n and replay")
          off -->|"then"| txn
          txn -->|"checkpoint complete"| commit_node
          txn -->|"crash"| abort_node
          abort_node -->|"replay from n"| off
          classDef g0_step fill:#dbe7fb,stroke:#2f6fdd,color:#1a1a1a
          class off,txn g0_step
          classDef g1_ok fill:#d9f2e7,stroke:#1f8a5c,color:#1a1a1a
          class commit_node g1_ok
          classDef g2_bad fill:#fbecd6,stroke:#b86e00,color:#1a1a1a
          class abort_node g2_bad
        """, res.body());
  }

  @Test
  void an_unknown_map_is_404_naming_it_and_the_maps_there_are() {
    var res = server.get("/api/lessons/exactly-once/map.mmd?map=nope");

    assertEquals(404, res.statusCode());
    assertEquals("{\"error\":\"lesson 'exactly-once' has no map 'nope'; maps: architecture, lesson-map, hostile\"}",
        res.body());
  }

  @Test
  void an_unknown_lesson_is_404_naming_it() {
    var res = server.get("/api/lessons/nope/map.mmd");

    assertEquals(404, res.statusCode());
    assertEquals("{\"error\":\"no lesson 'nope'; lessons here: exactly-once\"}", res.body());
  }

  @Test
  void the_lesson_page_carries_every_map_and_flow_with_deep_link_ids() {
    var page = server.get("/lessons/exactly-once").body();

    for (LessonMap map : lesson.maps()) {
      for (LessonMap.Node node : map.nodes()) assertTrue(page.contains("id=\"maps/node/" + node.id() + "\""), node.id());
      for (LessonMap.Edge edge : map.edges()) assertTrue(page.contains("id=\"maps/edge/" + edge.id() + "\""), edge.id());
      assertTrue(page.contains("href=\"/api/lessons/exactly-once/map.mmd?map=" + map.id() + "\""), map.id());
    }
    assertTrue(page.contains("id=\"maps/flow/two-phase-sink\""));
    assertTrue(page.contains("id=\"maps/flow/two-phase-sink/abort\""));
    assertTrue(!page.toLowerCase(Locale.ROOT).contains("mermaid.min.js"), "Mermaid itself is for tests only");
  }

  @Test
  void hostile_labels_are_escaped_in_the_svg_and_every_described_by_target_exists() {
    var page = server.get("/lessons/exactly-once").body();

    assertTrue(page.contains("aria-label=\"&lt;b&gt;bold&lt;/b&gt; &amp; a;b (c) --&gt;\""), "node label escaped in its name");
    assertTrue(page.contains("&lt;b&gt;bold&lt;/b&gt; &amp;"), "node label escaped in its text");
    assertTrue(!page.contains("<b>bold</b>"), "raw markup from a label reached the page");
    var describedBy = Pattern.compile("aria-describedby=\"([^\"]+)\"").matcher(page);
    int count = 0;
    while (describedBy.find()) {
      count++;
      assertTrue(page.contains("id=\"" + describedBy.group(1) + "\""), "no element " + describedBy.group(1));
    }
    int items = lesson.maps().stream().mapToInt(m -> m.nodes().size() + m.edges().size()).sum();
    assertEquals(items, count);
  }
}
