package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Markdown;

import static j2html.TagCreator.*;

/**
 * The map as text: every node with why it exists, every edge with protocol, direction, effect and consequence.
 * It is what a reader without JavaScript (or without sight) gets; the details panel shows copies of its entries,
 * and the SVG's nodes and edges point at them with {@code aria-describedby}.
 */
final class MapText {
  private MapText() {}

  static String itemId(String kind, String id) {
    return "maps/text/" + kind + "/" + id;
  }

  static DomContent render(LessonMap map) {
    return details(
        summary("Nodes and edges as text"),
        h4("Nodes"),
        ul(each(map.nodes(), MapText::node)).withClass("map-text-list"),
        iff(!map.edges().isEmpty(), h4("Edges")),
        iff(!map.edges().isEmpty(), ul(each(map.edges(), edge -> edge(map, edge))).withClass("map-text-list"))
    ).withClass("map-text").attr("open");
  }

  private static DomContent node(LessonMap.Node node) {
    return li(
        p(node.label()).withClass("map-text-title"),
        dl(
            dt("Why it exists"), dd(Markdown.block(node.why())),
            iff(node.group() != null, dt("Group")), iff(node.group() != null, dd(node.group()))
        )
    ).withId(itemId("node", node.id())).withClass("map-text-item").attr("data-kind", "node").attr("data-ref", node.id());
  }

  private static DomContent edge(LessonMap map, LessonMap.Edge edge) {
    return li(
        p(MapSvg.edgeName(map, edge)).withClass("map-text-title"),
        dl(
            dt("Protocol"), dd(Markdown.inline(edge.protocol())),
            dt("Direction"), dd(Markdown.inline(edge.direction())),
            dt("Effect"), dd(Markdown.inline(edge.effect())),
            dt("Consequence"), dd(Markdown.inline(edge.consequence()))
        )
    ).withId(itemId("edge", edge.id())).withClass("map-text-item").attr("data-kind", "edge").attr("data-ref", edge.id());
  }
}
