package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Markdown;

import static j2html.TagCreator.*;

/**
 * The Maps tab's own content: each map (interactive SVG, details panel, colour key, the map as text, Mermaid
 * export) and each decision flow. Server-rendered and complete without JavaScript; map.js and flow.js enhance it.
 */
public final class MapViews implements TabViews.MapsView {
  static final String KEYBOARD_HINT = "Keyboard: Tab to a node or edge, Enter or Space selects it, arrow keys move "
      + "between nodes, Escape clears the selection.";
  static final String TOUCH_HINT = "Swipe the map sideways to see all of it; tap a node or an arrow for its "
      + "explanation, tap it again to close it.";
  static final String PANEL_HINT = "Select a node to see why it exists, or an edge to see its protocol, direction, "
      + "effect and consequence.";

  @Override
  public DomContent render(Lesson lesson) {
    if (lesson.maps().isEmpty() && lesson.flows().isEmpty()) return text("");
    return div(
        each(lesson.maps(), map -> map(lesson, map, map == lesson.maps().get(0))),
        each(lesson.flows(), FlowView::render)
    ).withClass("maps-content");
  }

  private static DomContent map(Lesson lesson, LessonMap map, boolean first) {
    String headingId = "maps/map/" + map.id() + "/title";
    MapGroups groups = new MapGroups(map);
    return section(
        h3(map.title()).withId(headingId),
        iff(map.description() != null, div(Markdown.block(map.description()))
            .withClass("map-description")),
        div(p(KEYBOARD_HINT).withClass("map-keys-keyboard"), p(TOUCH_HINT).withClass("map-keys-touch"))
            .withClass("map-keys").attr("hidden"),
        div(
            div(MapSvg.render(map, first)).withClass("map-canvas"),
            div(p(PANEL_HINT).withClass("map-details-hint")).withClass("map-details").attr("aria-live", "polite")
                .attr("hidden")
        ).withClass("map-layout"),
        iff(!groups.all().isEmpty(), ul(each(groups.all(), group -> li(
            span().withClass("map-swatch map-group-" + groups.slot(group)).attr("aria-hidden", "true"),
            text(group))), li(span("✓").withClass("map-swatch-explored").attr("aria-hidden", "true"),
            text("explored"))).withClass("map-legend").attr("aria-label", "Colour key")),
        MapText.render(map),
        MermaidPanel.render(lesson, map)
    ).withId("maps/map/" + map.id()).withClass("map").attr("data-map", map.id()).attr("aria-labelledby", headingId);
  }
}
