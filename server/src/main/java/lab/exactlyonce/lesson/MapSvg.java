package lab.exactlyonce.lesson;

import j2html.tags.DomContent;

import java.util.List;

import static j2html.TagCreator.each;
import static lab.exactlyonce.lesson.MapLayout.num;

/**
 * Draws one map as inline SVG: rounded boxes for nodes, curved arrows for edges. Every node and edge is a focusable
 * button whose accessible name is its label (edges: "from → to: label") and whose description is the matching
 * entry of the text list ({@link MapText}), so a screen reader hears the whole diagram.
 */
final class MapSvg {
  private MapSvg() {}

  /** The arrowheads every map's edges use (maps.css refers to them), defined once per page. */
  static final String ARROW = "map-arrow";
  static final String ACTIVE_ARROW = "map-arrow-active";

  /**
   * @param definesArrows whether this map carries the page's arrowhead markers: the first map on a page does, so
   *     their ids stay unique and a style sheet can name them (no inline style, which the page's policy forbids)
   */
  static DomContent render(LessonMap map, boolean definesArrows) {
    MapLayout layout = new MapLayout(map);
    MapGroups groups = new MapGroups(map);
    return SvgTag.of("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("viewBox", "0 0 " + map.width() + " " + map.height())
        .attr("class", "map-svg")
        .attr("role", "group")
        .attr("aria-label", "Diagram: " + map.title())
        // Never drawn so small that a label falls under 12 px on screen; a narrow screen pans the map instead.
        // map.js applies it; without JavaScript maps.css keeps a fixed minimum.
        .attr("data-min-width", minWidth(map))
        .with(definesArrows
            ? SvgTag.of("defs").with(marker(ARROW, "map-arrowhead"), marker(ACTIVE_ARROW, "map-arrowhead is-active"))
            : SvgTag.of("defs"))
        .with(SvgTag.of("g").attr("class", "map-nodes").with(each(layout.boxes(), box -> node(box, groups))))
        .with(SvgTag.of("g").attr("class", "map-edges").with(each(layout.routes(), route -> edge(route, map))));
  }

  /** The smallest label is drawn at this size, in the map's own units (maps.css, .map-edge-label). */
  static final double SMALLEST_LABEL = 13;
  /** The size no label may fall under on screen, in CSS pixels. */
  static final double MIN_LABEL_PX = 12;

  static long minWidth(LessonMap map) {
    return (long) Math.ceil(map.width() * MIN_LABEL_PX / SMALLEST_LABEL);
  }

  static String edgeName(LessonMap map, LessonMap.Edge edge) {
    return labelOf(map, edge.from()) + " → " + labelOf(map, edge.to()) + ": " + edge.label();
  }

  private static String labelOf(LessonMap map, String nodeId) {
    return map.nodes().stream().filter(n -> n.id().equals(nodeId)).findFirst().map(LessonMap.Node::label).orElse(nodeId);
  }

  private static DomContent marker(String id, String cssClass) {
    return SvgTag.of("marker").attr("id", id).attr("viewBox", "0 0 10 10").attr("refX", "10").attr("refY", "5")
        .attr("markerWidth", "10").attr("markerHeight", "10").attr("markerUnits", "userSpaceOnUse")
        .attr("orient", "auto")
        .with(SvgTag.of("path").attr("d", "M0 0 L10 5 L0 10 z").attr("class", cssClass));
  }

  private static DomContent node(MapLayout.Box box, MapGroups groups) {
    LessonMap.Node node = box.node();
    String cssClass = "map-node" + groups.slot(node).map(slot -> " map-group-" + slot).orElse("");
    return SvgTag.of("g")
        .attr("id", "maps/node/" + node.id())
        .attr("class", cssClass)
        .attr("data-node", node.id())
        .attr("data-x", node.x())
        .attr("data-y", node.y())
        .attr("tabindex", "0")
        .attr("role", "button")
        .attr("aria-pressed", "false")
        .attr("aria-label", node.label())
        .attr("aria-describedby", MapText.itemId("node", node.id()))
        .with(rect("map-focus-ring", box.left() - 5, box.top() - 5, box.width() + 10, box.height() + 10, 14))
        .with(rect("map-node-box", box.left(), box.top(), box.width(), box.height(), 10))
        .with(lines("map-node-label", box.cx(), box.cy(), box.lines()))
        .with(exploredBadge(box));
  }

  private static DomContent edge(MapLayout.Route route, LessonMap map) {
    LessonMap.Edge edge = route.edge();
    return SvgTag.of("g")
        .attr("id", "maps/edge/" + edge.id())
        .attr("class", "map-edge")
        .attr("data-edge", edge.id())
        .attr("data-from", edge.from())
        .attr("data-to", edge.to())
        .attr("data-label", edge.label())
        .attr("tabindex", "0")
        .attr("role", "button")
        .attr("aria-pressed", "false")
        .attr("aria-label", edgeName(map, edge))
        .attr("aria-describedby", MapText.itemId("edge", edge.id()))
        .with(SvgTag.of("path").attr("class", "map-edge-hit").attr("d", route.path()))
        .with(SvgTag.of("path").attr("class", "map-edge-line").attr("d", route.path()))
        .with(lines("map-edge-label", route.labelX(), route.labelY(), route.labelLines()));
  }

  /** A check on the box's corner, shown once the node is explored (maps.css), so the border keeps its group colour. */
  private static DomContent exploredBadge(MapLayout.Box box) {
    double x = box.left() + box.width() - 2;
    double y = box.top() + 2;
    return SvgTag.of("g").attr("class", "map-explored-badge").attr("aria-hidden", "true")
        .with(SvgTag.of("circle").attr("cx", num(x)).attr("cy", num(y)).attr("r", "9"))
        .with(SvgTag.of("text").attr("x", num(x)).attr("y", num(y)).attr("text-anchor", "middle")
            .attr("dominant-baseline", "central").withText("✓"));
  }

  private static DomContent rect(String cssClass, double x, double y, double width, double height, int radius) {
    return SvgTag.of("rect").attr("class", cssClass).attr("x", num(x)).attr("y", num(y))
        .attr("width", num(width)).attr("height", num(height)).attr("rx", radius);
  }

  /** Text lines centred on (cx, cy). */
  private static DomContent lines(String cssClass, double cx, double cy, List<String> lines) {
    SvgTag text = SvgTag.of("text").attr("class", cssClass).attr("text-anchor", "middle")
        .attr("dominant-baseline", "central");
    for (int i = 0; i < lines.size(); i++) {
      double y = cy + (i - (lines.size() - 1) / 2.0) * MapLayout.LINE_HEIGHT;
      // A space between lines keeps the words apart in the accessible text (label in name).
      if (i > 0) text.with(j2html.TagCreator.text(" "));
      text.with(SvgTag.of("tspan").attr("x", num(cx)).attr("y", num(y)).withText(lines.get(i)));
    }
    return text;
  }
}
