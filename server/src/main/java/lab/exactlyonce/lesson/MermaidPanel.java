package lab.exactlyonce.lesson;

import j2html.tags.DomContent;

import static j2html.TagCreator.*;

/** The "Mermaid export" area under a map: the text, a Copy button (enabled by map.js) and a download link. */
final class MermaidPanel {
  private MermaidPanel() {}

  static DomContent render(Lesson lesson, LessonMap map) {
    String headingId = "maps/mermaid/" + map.id();
    return section(
        h4("Mermaid export").withId(headingId),
        p("The same diagram as Mermaid flowchart text, for docs and slides."),
        div(
            button("Copy").withType("button").withClass("map-copy").attr("hidden"),
            a("Download .mmd").withHref(MapRoutes.path(lesson, map)).attr("download", fileName(lesson, map))
                .withClass("map-download"),
            span().withClass("map-copy-status").attr("role", "status")
        ).withClass("map-export-actions"),
        pre(code(MermaidExport.of(map))).withClass("map-mermaid").attr("tabindex", "0")
            .attr("aria-label", "Mermaid text of " + map.title())
    ).withClass("map-export").attr("aria-labelledby", headingId);
  }

  static String fileName(Lesson lesson, LessonMap map) {
    return lesson.id() + "-" + map.id() + ".mmd";
  }
}
