package lab.exactlyonce;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.learner.MeRoutes;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonRoutes;
import lab.exactlyonce.lesson.MapRoutes;
import lab.exactlyonce.lesson.MapViews;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.exercise.ExerciseCatalog;
import lab.exactlyonce.exercise.ExerciseRoutes;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.EventRoutes;
import lab.exactlyonce.quiz.QuizRoutes;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.sandbox.SandboxRoutes;
import lab.exactlyonce.sandbox.SnippetCatalog;
import lab.exactlyonce.sandbox.SnippetViews;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.ErrorResponses;
import lab.exactlyonce.web.SameOriginGuard;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/** The application: built from a {@link Config}, wires every feature, holds no static state. */
public final class App {
  private final Config config;
  private final Javalin javalin;
  private final Sandbox sandbox;
  private final Database database;

  public App(Config config) {
    this.config = config;
    Path snippetsDir = ContentFolder.resolve(config.snippetsDir(), "snippets");
    LessonCatalog lessons = LessonCatalog.load(ContentFolder.resolve(config.lessonsDir(), "lessons"), snippetsDir);
    SnippetCatalog snippets = SnippetCatalog.load(snippetsDir);
    TabViews views = new TabViews(new MapViews(), new SnippetViews(snippets));
    LessonRoutes lessonRoutes = new LessonRoutes(lessons, views);
    MapRoutes mapRoutes = new MapRoutes(lessons);

    this.database = Database.open(config.jdbcUrl(), config.store().user(), config.store().password());
    Sandbox started = null;
    try {
      started = new Sandbox(config.sandbox());
      this.javalin = create(config, database, started, lessons, snippetsDir, snippets, lessonRoutes, mapRoutes);
    } catch (RuntimeException e) {
      if (started != null) started.close(); // a start-up mistake must not leave workers or the pool behind
      database.close();
      throw e;
    }
    this.sandbox = started;
  }

  private static Javalin create(Config config, Database database, Sandbox sandbox, LessonCatalog lessons, Path snippetsDir,
                                SnippetCatalog snippets, LessonRoutes lessonRoutes, MapRoutes mapRoutes) {
    Clock clock = Clock.systemUTC();
    Learners learners = new Learners(database, config.dataDir(), clock);
    EventLog events = new EventLog(database, clock);
    QuizRoutes quizRoutes = new QuizRoutes(lessons, snippetsDir, source -> sandbox.run("quiz-bank", source),
        config.dataDir(), database, events, learners, clock);
    ExerciseRoutes exerciseRoutes = new ExerciseRoutes(ExerciseCatalog.load(snippetsDir), sandbox);
    EventRoutes eventRoutes = new EventRoutes(lessons, events, learners,
        List.of(quizRoutes.answerKind(), exerciseRoutes.passedKind()));
    MeRoutes meRoutes = new MeRoutes(database, learners, List.of(events, quizRoutes.learnerData()));

    SandboxRoutes sandboxRoutes = new SandboxRoutes(sandbox, snippets);

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
      SameOriginGuard.register(cfg.routes, java.util.Set.of("/api/run")); // a run stores nothing about anyone
      sandboxRoutes.register(cfg.routes);
      exerciseRoutes.register(cfg.routes);
      eventRoutes.register(cfg.routes);
      meRoutes.register(cfg.routes);
      quizRoutes.register(cfg.routes);
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

  /**
   * Answers waiting runs and ends the sandbox workers (while HTTP can still answer), then stops HTTP, then closes
   * the database pool.
   */
  public void stop() {
    try {
      sandbox.close();
      javalin.stop();
    } finally {
      database.close();
    }
  }
}
