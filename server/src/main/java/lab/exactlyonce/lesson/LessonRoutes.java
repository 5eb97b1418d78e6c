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

  /** One entry of {@code GET /api/lessons}: enough to list a lesson and find its page and its data. */
  record Listing(String id, String title, String summary, String page, String data) {
    static Listing of(Lesson lesson) {
      return new Listing(lesson.id(), lesson.title(), lesson.summary(), "/lessons/" + lesson.id(), "/api/lessons/" + lesson.id());
    }
  }

  public void register(RoutesConfig routes) {
    routes.get("/", ctx -> ctx.html(pages.home(catalog.all())));
    routes.get("/lessons/{id}", ctx -> ctx.html(pages.lesson(catalog.require(ctx.pathParam("id")))));
    routes.get("/api/lessons", ctx -> ctx.json(catalog.all().stream().map(Listing::of).toList()));
    routes.get("/api/lessons/{id}", ctx -> ctx.json(catalog.require(ctx.pathParam("id"))));
  }
}
