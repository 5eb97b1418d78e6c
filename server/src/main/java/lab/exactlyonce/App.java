package lab.exactlyonce;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonRoutes;
import lab.exactlyonce.lesson.MapRoutes;
import lab.exactlyonce.lesson.MapViews;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.learner.MeRoutes;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.EventRoutes;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.ErrorResponses;
import lab.exactlyonce.web.SameOriginGuard;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static j2html.TagCreator.*;

/** The application: built from a {@link Config}, wires every feature, holds no static state. */
public final class App {
  private final Config config;
  private final Javalin javalin;
  private final Database database;

  public App(Config config) {
    this.config = config;
    this.database = Database.open(config.jdbcUrl(), config.store().user(), config.store().password());
    try {
      this.javalin = create(config, database);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
  }

  private static Javalin create(Config config, Database database) {
    LessonCatalog lessons = LessonCatalog.load(ContentFolder.resolve(config.lessonsDir(), "lessons"),
        ContentFolder.resolve(config.snippetsDir(), "snippets"));
    TabViews views = new TabViews(
        new MapViews(),
        (lesson, snippetId) -> div().withId("sandbox/" + snippetId)); // the sandbox feature draws here
    LessonRoutes lessonRoutes = new LessonRoutes(lessons, views);
    MapRoutes mapRoutes = new MapRoutes(lessons);
    Clock clock = Clock.systemUTC();
    Learners learners = new Learners(database, config.dataDir(), clock);
    EventLog events = new EventLog(database, clock);
    EventRoutes eventRoutes = new EventRoutes(lessons, events, learners, List.of());
    MeRoutes meRoutes = new MeRoutes(database, learners, List.of(events));

    return Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.events.serverStopped(database::close); // also when a test stops javalin() directly
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
      SameOriginGuard.register(cfg.routes);
      eventRoutes.register(cfg.routes);
      meRoutes.register(cfg.routes);
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

  /** Stops serving, then closes the database pool. */
  public void stop() {
    try {
      javalin.stop();
    } finally {
      database.close();
    }
  }
}
