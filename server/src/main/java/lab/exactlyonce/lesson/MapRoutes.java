package lab.exactlyonce.lesson;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;

import java.util.stream.Collectors;

/** {@code GET /api/lessons/{id}/map.mmd}: a lesson's map as Mermaid text; {@code ?map=<mapId>}, else the first. */
public final class MapRoutes {
  private final LessonCatalog catalog;

  public MapRoutes(LessonCatalog catalog) {
    this.catalog = catalog;
  }

  public void register(RoutesConfig routes) {
    routes.get("/api/lessons/{id}/map.mmd", this::mermaid);
  }

  static String path(Lesson lesson, LessonMap map) {
    return "/api/lessons/" + lesson.id() + "/map.mmd?map=" + map.id();
  }

  private void mermaid(Context ctx) {
    Lesson lesson = catalog.require(ctx.pathParam("id"));
    LessonMap map = pick(lesson, ctx.queryParam("map"));
    ctx.contentType("text/plain; charset=utf-8");
    ctx.header("Content-Disposition", "attachment; filename=\"" + MermaidPanel.fileName(lesson, map) + "\"");
    ctx.result(MermaidExport.of(map));
  }

  static LessonMap pick(Lesson lesson, String mapId) {
    if (lesson.maps().isEmpty()) throw new NotFoundResponse("lesson '" + lesson.id() + "' has no maps");
    if (mapId == null || mapId.isBlank()) return lesson.maps().get(0);
    return lesson.maps().stream().filter(m -> m.id().equals(mapId)).findFirst()
        .orElseThrow(() -> new NotFoundResponse("lesson '" + lesson.id() + "' has no map '" + mapId + "'; maps: "
            + lesson.maps().stream().map(LessonMap::id).collect(Collectors.joining(", "))));
  }
}
