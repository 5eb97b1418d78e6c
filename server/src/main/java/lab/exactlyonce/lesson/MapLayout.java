package lab.exactlyonce.lesson;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where things go on a map's canvas: a box around each node sized for its wrapped label, and for each edge a path
 * from box border to box border. Edges between the same two nodes bend apart so their arrows and labels do not
 * overlap. Pure geometry; {@link MapSvg} draws it.
 */
final class MapLayout {
  static final int NODE_WIDTH = 170;
  static final int LINE_HEIGHT = 18;
  static final int NODE_PADDING = 12;
  static final int NODE_CHARS = 19;
  static final int EDGE_CHARS = 24;
  static final int MIN_EDGE_CHARS = 9;
  private static final double GAP = 3;
  private static final double BEND = 90;
  private static final double[] DETOURS = {0, 70, -70, 140, -140, 220, -220};

  record Box(LessonMap.Node node, double cx, double cy, double width, double height, List<String> lines) {
    double left() { return cx - width / 2; }
    double top() { return cy - height / 2; }
  }

  record Route(LessonMap.Edge edge, String path, double labelX, double labelY, List<String> labelLines) {}

  private final Map<String, Box> boxes = new LinkedHashMap<>();
  private final List<Route> routes = new ArrayList<>();

  MapLayout(LessonMap map) {
    for (LessonMap.Node node : map.nodes()) {
      List<String> lines = LabelLines.wrap(node.label(), NODE_CHARS, 3);
      double height = lines.size() * LINE_HEIGHT + 2 * NODE_PADDING;
      boxes.put(node.id(), new Box(node, node.x(), node.y(), NODE_WIDTH, height, lines));
    }
    Map<String, List<LessonMap.Edge>> byPair = new HashMap<>();
    for (LessonMap.Edge edge : map.edges()) byPair.computeIfAbsent(pairKey(edge), k -> new ArrayList<>()).add(edge);
    for (LessonMap.Edge edge : map.edges()) {
      List<LessonMap.Edge> siblings = byPair.get(pairKey(edge));
      routes.add(route(edge, siblings.indexOf(edge), siblings.size()));
    }
  }

  List<Box> boxes() {
    return List.copyOf(boxes.values());
  }

  List<Route> routes() {
    return List.copyOf(routes);
  }

  private static String pairKey(LessonMap.Edge edge) {
    return edge.from().compareTo(edge.to()) <= 0 ? edge.from() + " " + edge.to() : edge.to() + " " + edge.from();
  }

  private Route route(LessonMap.Edge edge, int index, int count) {
    Box from = boxes.get(edge.from());
    Box to = boxes.get(edge.to());
    if (from == to) return loop(edge, from, index, LabelLines.wrap(edge.label(), EDGE_CHARS, 2));
    // A normal fixed by the pair's canonical order, so edges in opposite directions bend to opposite sides.
    boolean canonical = edge.from().compareTo(edge.to()) <= 0;
    Box a = canonical ? from : to;
    Box b = canonical ? to : from;
    double dx = b.cx - a.cx;
    double dy = b.cy - a.cy;
    double length = Math.max(1, Math.hypot(dx, dy));
    double nx = -dy / length;
    double ny = dx / length;
    double base = (index - (count - 1) / 2.0) * BEND;
    double controlX = 0;
    double controlY = 0;
    double[] start = null;
    double[] end = null;
    // Bend further, alternating sides, until the curve clears every other box (or give up and keep the first).
    for (double detour : DETOURS) {
      double offset = base + (base < 0 ? -detour : detour);
      double cx = (from.cx + to.cx) / 2 + nx * offset;
      double cy = (from.cy + to.cy) / 2 + ny * offset;
      double[] s = border(from, cx, cy);
      double[] e = border(to, cx, cy);
      boolean clear = clear(s, cx, cy, e, from, to);
      if (start == null || clear) {
        controlX = cx;
        controlY = cy;
        start = s;
        end = e;
      }
      if (clear) break;
    }
    String path = "M" + num(start[0]) + " " + num(start[1]) + " Q" + num(controlX) + " " + num(controlY) + " "
        + num(end[0]) + " " + num(end[1]);
    // A label no wider than the gap it sits in, so it does not cover the boxes at either end.
    int chars = (int) Math.max(MIN_EDGE_CHARS, Math.min(EDGE_CHARS, Math.hypot(end[0] - start[0], end[1] - start[1]) / 6.8));
    List<String> labelLines = LabelLines.wrap(edge.label(), chars, 3);
    double labelX = 0.25 * start[0] + 0.5 * controlX + 0.25 * end[0];
    double labelY = 0.25 * start[1] + 0.5 * controlY + 0.25 * end[1];
    // On a flat edge the label sits just above the line rather than across it.
    if (Math.abs(end[1] - start[1]) < 0.3 * Math.abs(end[0] - start[0])) labelY -= labelLines.size() * 8 + 3;
    return new Route(edge, path, labelX, labelY, labelLines);
  }

  private static Route loop(LessonMap.Edge edge, Box box, int index, List<String> labelLines) {
    double top = box.top() - GAP;
    double spread = 30 + 12 * index;
    double rise = 40 + 20 * index;
    String path = "M" + num(box.cx - spread) + " " + num(top) + " C" + num(box.cx - spread) + " " + num(top - rise)
        + " " + num(box.cx + spread) + " " + num(top - rise) + " " + num(box.cx + spread) + " " + num(top);
    return new Route(edge, path, box.cx, top - rise * 0.75 - 4, labelLines);
  }

  /** Whether the quadratic curve misses every box but its own two ends. */
  private boolean clear(double[] s, double cx, double cy, double[] e, Box from, Box to) {
    for (Box box : boxes.values()) {
      if (box == from || box == to) continue;
      for (int i = 0; i <= 24; i++) {
        double t = i / 24.0;
        double x = (1 - t) * (1 - t) * s[0] + 2 * (1 - t) * t * cx + t * t * e[0];
        double y = (1 - t) * (1 - t) * s[1] + 2 * (1 - t) * t * cy + t * t * e[1];
        if (Math.abs(x - box.cx) <= box.width / 2 + 6 && Math.abs(y - box.cy) <= box.height / 2 + 6) return false;
      }
    }
    return true;
  }

  /** Where the line from the box's centre towards (x, y) leaves the box, plus a small gap. */
  private static double[] border(Box box, double x, double y) {
    double dx = x - box.cx;
    double dy = y - box.cy;
    double halfW = box.width / 2 + GAP;
    double halfH = box.height / 2 + GAP;
    double t = Math.min(dx == 0 ? Double.MAX_VALUE : halfW / Math.abs(dx), dy == 0 ? Double.MAX_VALUE : halfH / Math.abs(dy));
    if (t == Double.MAX_VALUE) return new double[] {box.cx, box.cy};
    return new double[] {box.cx + dx * t, box.cy + dy * t};
  }

  static String num(double value) {
    String text = String.format(Locale.ROOT, "%.1f", value);
    return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
  }
}
