package lab.exactlyonce.lesson;

import io.javalin.config.RoutesConfig;

/** HTTP in and out for lessons: the pages and the lesson JSON. */
public final class LessonRoutes {
  private final LessonCatalog catalog;
  private final LessonPages pages;

  public LessonRoutes(LessonCatalog catalog, TabViews views) {
    this.catalog = catalog;
    this.pages = new LessonPages(views);
  }

  public void register(RoutesConfig routes) {
    routes.get("/", ctx -> ctx.html(pages.home(catalog.all())));
    routes.get("/lessons/{id}", ctx -> ctx.html(pages.lesson(catalog.require(ctx.pathParam("id")))));
    routes.get("/api/lessons", ctx -> ctx.json(catalog.all().stream()
        .map(l -> java.util.Map.of("id", l.id(), "title", l.title())).toList()));
    routes.get("/api/lessons/{id}", ctx -> ctx.json(catalog.require(ctx.pathParam("id"))));
  }
}
