package lab.exactlyonce;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonRoutes;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.web.ErrorResponses;

import java.util.Map;

import static j2html.TagCreator.*;

/** The application: built from a {@link Config}, wires every feature, holds no static state. */
public final class App {
  private final Config config;
  private final Javalin javalin;

  public App(Config config) {
    this.config = config;
    LessonCatalog lessons = LessonCatalog.load(ContentFolder.resolve(config.lessonsDir(), "lessons"),
        ContentFolder.resolve(config.snippetsDir(), "snippets"));
    TabViews views = new TabViews(
        lesson -> div(),                               // the maps feature draws here
        (lesson, snippetId) -> div().withId("sandbox/" + snippetId)); // the sandbox feature draws here
    LessonRoutes lessonRoutes = new LessonRoutes(lessons, views);

    this.javalin = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.jetty.host = config.host();
      cfg.staticFiles.add(files -> {
        files.hostedPath = "/assets";
        files.directory = "/web";
        files.location = Location.CLASSPATH;
      });
      cfg.staticFiles.enableWebjars();
      cfg.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
      lessonRoutes.register(cfg.routes);
      ErrorResponses.register(cfg.routes);
    });
  }

  public Javalin javalin() {
    return javalin;
  }

  public App start() {
    javalin.start(config.port());
    return this;
  }

  public int port() {
    return javalin.port();
  }

  public void stop() {
    javalin.stop();
  }
}
