package lab.exactlyonce.lesson;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MapLayoutTest {
  private static final Pattern PATH = Pattern.compile("M(\\S+) (\\S+) Q(\\S+) (\\S+) (\\S+) (\\S+)");

  private static LessonMap.Node node(String id, int x, int y) {
    return new LessonMap.Node(id, id, null, x, y, "why");
  }

  private static LessonMap.Edge edge(String id, String from, String to) {
    return new LessonMap.Edge(id, from, to, "label", "p", "d", "e", "c");
  }

  private static double[] points(MapLayout.Route route) {
    Matcher m = PATH.matcher(route.path());
    assertTrue(m.matches(), route.path());
    double[] out = new double[6];
    for (int i = 0; i < 6; i++) out[i] = Double.parseDouble(m.group(i + 1));
    return out;
  }

  @Test
  void a_lone_edge_runs_straight_from_border_to_border() {
    var map = new LessonMap("m", "M", null, 800, 200, List.of(node("a", 100, 100), node("b", 500, 100)),
        List.of(edge("ab", "a", "b")));

    double[] p = points(new MapLayout(map).routes().get(0));

    // Boxes are 170 wide: a's right border is at 185, b's left border at 415; 3 px gap each side.
    assertEquals(188, p[0], 0.01);
    assertEquals(412, p[4], 0.01);
    assertEquals(100, p[1], 0.01);
    assertEquals(100, p[3], 0.01);  // control point on the line: straight
  }

  @Test
  void edges_both_ways_between_two_nodes_bend_to_opposite_sides() {
    var map = new LessonMap("m", "M", null, 800, 200, List.of(node("a", 100, 100), node("b", 500, 100)),
        List.of(edge("ab", "a", "b"), edge("ba", "b", "a")));
    List<MapLayout.Route> routes = new MapLayout(map).routes();

    double there = points(routes.get(0))[3];
    double back = points(routes.get(1))[3];

    assertNotEquals(100, there, 1);
    assertEquals(200, there + back, 0.01);  // mirrored about the line between the centres
  }

  @Test
  void an_edge_whose_straight_line_would_cross_another_box_bends_around_it() {
    var map = new LessonMap("m", "M", null, 1000, 300,
        List.of(node("a", 100, 100), node("middle", 500, 100), node("b", 900, 100)),
        List.of(edge("ab", "a", "b")));
    MapLayout layout = new MapLayout(map);

    double[] p = points(layout.routes().get(0));

    // Half-way the quadratic curve is at (start + 2 control + end) / 4; it must clear the middle box (height 54).
    double midY = (p[1] + 2 * p[3] + p[5]) / 4;
    assertFalse(Math.abs(midY - 100) <= 27 + 6, "the curve still crosses the middle box: " + layout.routes().get(0).path());
  }

  @Test
  void node_boxes_grow_with_their_wrapped_label() {
    var map = new LessonMap("m", "M", null, 800, 200,
        List.of(new LessonMap.Node("a", "Short", null, 100, 100, "why"),
            new LessonMap.Node("b", "A much longer label that wraps onto three lines", null, 400, 100, "why")),
        List.of());
    List<MapLayout.Box> boxes = new MapLayout(map).boxes();

    assertEquals(List.of("Short"), boxes.get(0).lines());
    assertEquals(3, boxes.get(1).lines().size());
    assertEquals(18 + 24, boxes.get(0).height(), 0.01);
    assertEquals(3 * 18 + 24, boxes.get(1).height(), 0.01);
  }
}
