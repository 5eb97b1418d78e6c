package lab.exactlyonce;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonRoutes;
import lab.exactlyonce.lesson.MapRoutes;
import lab.exactlyonce.lesson.MapViews;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.sandbox.SandboxRoutes;
import lab.exactlyonce.sandbox.SnippetCatalog;
import lab.exactlyonce.sandbox.SnippetViews;
import lab.exactlyonce.web.ErrorResponses;

import java.nio.file.Path;
import java.util.Map;


/** The application: built from a {@link Config}, wires every feature, holds no static state. */
public final class App {
  private final Config config;
  private final Javalin javalin;
  private final Sandbox sandbox;

  public App(Config config) {
    this.config = config;
    Path snippetsDir = ContentFolder.resolve(config.snippetsDir(), "snippets");
    LessonCatalog lessons = LessonCatalog.load(ContentFolder.resolve(config.lessonsDir(), "lessons"), snippetsDir);
    SnippetCatalog snippets = SnippetCatalog.load(snippetsDir);
    this.sandbox = new Sandbox(config.sandbox());
    TabViews views = new TabViews(
        new MapViews(),
        new SnippetViews(snippets));
    LessonRoutes lessonRoutes = new LessonRoutes(lessons, views);
    MapRoutes mapRoutes = new MapRoutes(lessons);
    SandboxRoutes sandboxRoutes = new SandboxRoutes(sandbox, snippets);

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
      mapRoutes.register(cfg.routes);
      sandboxRoutes.register(cfg.routes);
      ErrorResponses.register(cfg.routes);
    });
  }

  public Javalin javalin() {
    return javalin;
  }

  /** Starts the sandbox workers (warming up in the background) and the HTTP server. */
  public App start() {
    sandbox.start();
    javalin.start(config.port());
    return this;
  }

  public Sandbox sandbox() {
    return sandbox;
  }

  public int port() {
    return javalin.port();
  }

  /** Answers waiting runs and ends the sandbox workers (while HTTP can still answer), then stops HTTP. */
  public void stop() {
    sandbox.close();
    javalin.stop();
  }
}
