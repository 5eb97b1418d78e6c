package lab.exactlyonce.lesson;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class MermaidExportTest {
  private static LessonMap.Node node(String id, String label, String group) {
    return new LessonMap.Node(id, label, group, 100, 100, "why");
  }

  private static LessonMap.Edge edge(String id, String from, String to, String label) {
    return new LessonMap.Edge(id, from, to, label, "p", "d", "e", "c");
  }

  @Test
  void a_small_map_becomes_a_flowchart_with_shapes_edge_labels_and_a_class_per_group() {
    var map = new LessonMap("tiny", "Tiny pipeline", null, 600, 300,
        List.of(node("source", "Orders topic", "source"), node("job", "Job", "processing"),
            node("coordinator", "Checkpoint coordinator", "coordination"), node("sink", "Sink", null)),
        List.of(edge("e1", "source", "job", "records"), edge("e2", "job", "sink", "results"),
            edge("e3", "coordinator", "job", "barrier n")));

    assertEquals("""
        flowchart LR
          %% Tiny pipeline
          source[("Orders topic")]
          job("Job")
          coordinator{{"Checkpoint coordinator"}}
          sink("Sink")
          source -->|"records"| job
          job -->|"results"| sink
          coordinator -->|"barrier n"| job
          classDef g0_source fill:#dbe7fb,stroke:#2f6fdd,color:#1a1a1a
          class source g0_source
          classDef g1_processing fill:#d9f2e7,stroke:#1f8a5c,color:#1a1a1a
          class job g1_processing
          classDef g2_coordination fill:#fbecd6,stroke:#b86e00,color:#1a1a1a
          class coordinator g2_coordination
        """, MermaidExport.of(map));
  }

  @Test
  void a_tall_map_flows_top_to_bottom() {
    var map = new LessonMap("tall", "Tall", null, 300, 600, List.of(node("a", "A", null)), List.of());

    assertEquals("flowchart TB\n  %% Tall\n  a(\"A\")\n", MermaidExport.of(map));
  }

  @Test
  void labels_escape_quotes_hash_ampersand_angle_brackets_and_backticks_and_keep_brackets_and_pipes_quoted() {
    assertEquals("\"Say #quot;hi#quot; [x] | {y} #35; z\"", MermaidExport.quote("Say \"hi\" [x] | {y} # z"));
    assertEquals("\"#lt;b#gt;bold#lt;/b#gt; #amp; a;b (c) --#gt;\"", MermaidExport.quote("<b>bold</b> & a;b (c) -->"));
    assertEquals("\"#96;code#96; and #amp;amp;\"", MermaidExport.quote("`code` and &amp;"));
  }

  @Test
  void line_breaks_in_labels_become_br() {
    assertEquals("\"Line one<br>line two<br>three\"", MermaidExport.quote("Line one\n  line two\r\nthree"));
  }

  @Test
  void node_ids_avoid_mermaid_keywords_leading_digits_and_collisions() {
    var map = new LessonMap("ids", "Ids", null, 600, 300,
        List.of(node("end", "End", null), node("o-x", "Ox", null), node("1st", "First", null),
            node("a-b", "A-b", null), node("a_b", "A_b", null), node("Class", "Class", null)),
        List.of(edge("e1", "end", "o-x", "x"), edge("e2", "a-b", "a_b", "y")));

    assertEquals("""
        flowchart LR
          %% Ids
          n_end("End")
          o_x("Ox")
          n_1st("First")
          a_b("A-b")
          a_b_2("A_b")
          n_Class("Class")
          n_end -->|"x"| o_x
          a_b -->|"y"| a_b_2
        """, MermaidExport.of(map));
  }

  @Test
  void a_hostile_title_cannot_escape_its_comment_line_and_odd_group_names_make_valid_class_names() {
    var map = new LessonMap("t", "Title %%{init: {}}%%\nsecond line", null, 600, 300,
        List.of(node("a", "A", "odd group!")), List.of());

    assertEquals("""
        flowchart LR
          %% Title init: second line
          a("A")
          classDef g0_odd_group_ fill:#dbe7fb,stroke:#2f6fdd,color:#1a1a1a
          class a g0_odd_group_
        """, MermaidExport.of(map));
  }

  static Stream<Arguments> bundledMaps() {
    return BundledLessons.all().stream().flatMap(l -> l.maps().stream().map(m -> arguments(l.id(), m.id(), m)));
  }

  /** What the browser test parses with Mermaid, read here for what a reader of the diagram would miss. */
  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("bundledMaps")
  void every_bundled_map_exports_each_node_and_each_edge_with_its_label(String lesson, String id, LessonMap map) {
    String text = MermaidExport.of(map);
    List<String> lines = text.lines().toList();
    for (LessonMap.Node n : map.nodes()) {
      String label = MermaidExport.quote(n.label());
      assertEquals(1, lines.stream().filter(l -> !l.contains("-->") && l.contains(label)).count(),
          "node " + n.id() + " once in\n" + text);
    }
    assertEquals(map.edges().size(), lines.stream().filter(l -> l.contains(" -->|")).count(), text);
    for (LessonMap.Edge e : map.edges()) {
      assertTrue(text.contains(" -->|" + MermaidExport.quote(e.label()) + "| "), "edge " + e.id() + " in\n" + text);
    }
  }
}
