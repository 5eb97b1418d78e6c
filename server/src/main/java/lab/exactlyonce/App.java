package lab.exactlyonce;

import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;
import io.javalin.util.JavalinBindException;
import lab.exactlyonce.classroom.ClassroomRoutes;
import lab.exactlyonce.classroom.HeldAnswers;
import lab.exactlyonce.classroom.SandboxNotice;
import lab.exactlyonce.enginelab.EngineLabRoutes;
import lab.exactlyonce.exercise.ExerciseCatalog;
import lab.exactlyonce.exercise.ExerciseRoutes;
import lab.exactlyonce.exercise.ExerciseStarters;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.learner.MeRoutes;
import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonRoutes;
import lab.exactlyonce.lesson.MapRoutes;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.ops.Operations;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.EventRoutes;
import lab.exactlyonce.progress.Progresses;
import lab.exactlyonce.quiz.KeyPoints;
import lab.exactlyonce.quiz.QuizFeature;
import lab.exactlyonce.rubric.RubricCatalog;
import lab.exactlyonce.rubric.RubricRoutes;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.sandbox.SandboxService;
import lab.exactlyonce.sandbox.SandboxSettings;
import lab.exactlyonce.sandbox.confinement.ConfinementReport;
import lab.exactlyonce.share.ShareRoutes;
import lab.exactlyonce.snippet.ShippedRuns;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.snippet.SnippetRoutes;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.store.LocalData;
import lab.exactlyonce.store.TempDirs;
import lab.exactlyonce.web.AssetVersion;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.ErrorResponses;
import lab.exactlyonce.web.SameOriginGuard;
import lab.exactlyonce.web.SecurityHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** The application: built from a {@link Config}, wires every feature, holds no static state. */
public final class App {
  private final Config config;
  private final Javalin javalin;
  private final SandboxService sandbox;
  private final LocalData local;
  private final Database database;
  private final ClassroomRoutes classroom;
  private final Operations ops;
  private final EngineLabRoutes engineLab;
  private final ShippedRuns shippedRuns;
  /** The shipped snippets' runs at the start; done at once when the workers wait for the first run instead. */
  private volatile CompletableFuture<Void> warmedUp = CompletableFuture.completedFuture(null);
  /** How often each lesson snippet runs on each worker as the server starts (see {@link ShippedRuns#warmUp}). */
  private static final int WARM_UP_ROUNDS = 10;
  private static final Logger log = LoggerFactory.getLogger(App.class);
  /** The port, once the server listens (before the sandbox and the engines have started). */
  private final CompletableFuture<Integer> listening = new CompletableFuture<>();
  /** Where a generated instructor secret was written, when this start generated one. */
  private volatile String secretNews = "";

  /**
   * Builds every feature in the order they need each other: the content (loaded on a thread of its own while the
   * data directory and database open; a mistake in it is reported before theirs), the sandbox, each feature's
   * service, and last the HTTP server that registers their routes. A mistake on the way closes what was already
   * opened.
   */
  public App(Config config) {
    this(config, Sandbox::new);
  }

  /**
   * The app with the sandbox {@code sandboxes} makes from the configured settings: the real {@link Sandbox} (what
   * {@link #App(Config)} uses), or another behind the same port where the sandbox is not what is being tried.
   */
  public App(Config config, Function<SandboxSettings, SandboxService> sandboxes) {
    this.config = config;
    CompletableFuture<Content> loading = Content.loadAside(config);
    for (Path left : TempDirs.sweep()) log.info("removed {}, left by a run that ended without cleaning up", left);
    Content content;
    try {
      this.local = LocalData.claim(config.dataDir()); // before anything writes there: one app per data dir
    } catch (RuntimeException e) {
      Content.await(loading); // a mistake in the content is reported first, as when it was loaded first
      throw e;
    }
    try {
      this.database = local.open(config.store());
    } catch (RuntimeException e) { // the data dir is let go already
      Content.await(loading);
      throw e;
    }
    try {
      content = Content.await(loading);
    } catch (RuntimeException | Error e) {
      database.close(); // and with it the data dir
      throw e;
    }
    Path snippetsDir = content.snippetsDir();
    SnippetCatalog snippets = content.snippets();
    Path lessonsDir = content.lessonsDir();
    LessonCatalog lessons = content.lessons();
    RubricCatalog rubrics = content.rubrics();
    ExerciseCatalog exercises = content.exercises();
    TabViews views = content.views();
    // Its threads start here, after the steps that refuse bad content or a data dir in use: a refused start leaves none.
    this.ops = new Operations(config.ops());
    SandboxService started = null;
    EngineLabRoutes lab = null;
    try {
      started = sandboxes.apply(config.sandbox());
      SandboxService sandbox = started;
      ops.watch(sandbox);
      Clock clock = config.clock();
      Learners learners = new Learners(database, config.dataDir(), clock);
      ClientKeys clients = new ClientKeys(config.ops().clients().ipv6PrefixBits(), learners::current);
      AnswerHolds holds = new HeldAnswers(database, learners);
      EventLog events = new EventLog(database, clock);
      Progresses progresses = new Progresses(events, exercises::idsIn);
      QuizFeature quiz = new QuizFeature(lessons, lessonsDir, snippets, snippetsDir, sandbox, new ExerciseStarters(exercises, sandbox),
          config.dataDir(), database, events, learners, holds,
          new KeyPoints(rubrics::questions, rubrics.maxAnswerChars()), clock);
      ExerciseRoutes exerciseRoutes = new ExerciseRoutes(exercises, sandbox, events, learners, clients);
      EventRoutes eventRoutes = new EventRoutes(lessons, events, progresses, learners, List.of(quiz.answerKind()));
      this.shippedRuns = new ShippedRuns(sandbox, snippets, clock);
      SnippetRoutes snippetRoutes = new SnippetRoutes(sandbox, snippets, clients, shippedRuns);
      ShareRoutes shareRoutes = new ShareRoutes(config.share(), database, snippets, sandbox.limits().maxSourceBytes(), clients, clock);
      this.classroom = new ClassroomRoutes(config.classroom(), config.dataDir(), database, events, quiz.liveBank(),
          lessons, learners, progresses::derive, clock, news -> secretNews = news, ops.liveStreams()::add,
          () -> sandboxNotice(sandbox));
      lab = new EngineLabRoutes(config.engineLab(), snippets, clients); // its engine process starts with the first real run
      EngineLabRoutes engineLabRoutes = lab;
      MeRoutes meRoutes = new MeRoutes(learners, List.of(events, events.setAside(), quiz.learnerData(),
          classroom.learnerData()));

      this.javalin = Javalin.create(cfg -> {
        cfg.startup.showJavalinBanner = false;
        cfg.events.serverStopped(() -> {
          classroom.close();
          database.close(); // also when the server is stopped on its own
        });
        cfg.jetty.host = config.host();
        ops.configure(cfg);
        // Pages name their assets by this build's fingerprint: those never change, so a browser keeps them for a
        // year without asking; the same files without it (a page cached before an upgrade) are revalidated.
        cfg.staticFiles.add(files -> {
          files.hostedPath = AssetVersion.PATH;
          files.directory = AssetVersion.DIRECTORY;
          files.location = Location.CLASSPATH;
          files.headers = Map.of("Cache-Control", "public, max-age=31536000, immutable");
        });
        cfg.staticFiles.add(files -> {
          files.hostedPath = "/assets";
          files.directory = AssetVersion.DIRECTORY;
          files.location = Location.CLASSPATH;
        });
        cfg.staticFiles.enableWebjars();
        SecurityHeaders.register(cfg.routes, config.ops().frameAncestors());
        cfg.routes.get("/healthz", ctx -> ctx.json(new Health("ok", sandbox.confinementLevel(), sandboxWorkers(),
            engineLabRoutes.engines())));
        ops.register(cfg.routes);
        new LessonRoutes(lessons, views, holds, quiz.dueReviews()).register(cfg.routes);
        new MapRoutes(lessons).register(cfg.routes);
        new RubricRoutes(lessons, rubrics, holds, clients, clock).register(cfg.routes);
        SameOriginGuard.register(cfg.routes, Set.of("/api/run")); // a run stores nothing about anyone
        snippetRoutes.register(cfg.routes);
        shareRoutes.register(cfg.routes);
        exerciseRoutes.register(cfg.routes);
        eventRoutes.register(cfg.routes);
        meRoutes.register(cfg.routes);
        quiz.register(cfg.routes);
        classroom.register(cfg.routes);
        engineLabRoutes.register(cfg.routes);
        ErrorResponses.register(cfg.routes);
      });
    } catch (RuntimeException e) {
      if (started != null) started.close(); // a start-up mistake must not leave workers or the pool behind
      if (lab != null) lab.close();
      database.close();
      ops.close();
      throw e;
    }
    this.sandbox = started;
    this.engineLab = lab;
  }

  /**
   * The {@code /healthz} answer: up; how the sandbox's workers are confined ({@code unchecked} until its self-check
   * ran); whether they are {@code starting}, {@code warming} (taking runs, still running the shipped snippets),
   * {@code ready}, or wait for the first run ({@code on-first-run}); and the engine lab's engines ({@code off},
   * {@code warming}, {@code warm} or {@code stopped}).
   */
  private record Health(String status, String sandboxConfinement, String sandboxWorkers, String engineLab) {}

  private String sandboxWorkers() {
    if (!config.sandbox().startWithApp()) return "on-first-run";
    if (sandbox.confinementLevel().equals("unchecked")) return "starting";
    return warmedUp.isDone() ? "ready" : "warming";
  }

  /**
   * Starts the HTTP server, then the sandbox (its confinement self-check and workers, which warm up in the
   * background; unless the settings leave that to the first run) and the engine lab's warm-up. Pages answer while the
   * sandbox starts: a run asked for meanwhile waits for the workers.
   *
   * @throws StartException when the HTTP port cannot be had (another program listens on it)
   * @throws lab.exactlyonce.sandbox.confinement.ConfinementException when the sandbox cannot reach the confinement
   *     the settings ask for (the caller stops the app)
   */
  public App start() {
    if (config.sandbox().startWithApp()) warmedUp = new CompletableFuture<>(); // "starting" until the workers run
    try {
      javalin.start(config.port());
    } catch (JavalinBindException e) {
      throw new StartException("port " + config.port() + " on " + config.host() + " is already in use by another "
          + "program: stop it, or start with --port <another port> (0 picks a free one)");
    }
    local.serving(port());
    listening.complete(port());
    engineLab.start(); // the engines warm up in the background
    if (config.sandbox().startWithApp()) {
      sandbox.start();
      warmedUp = shippedRuns.warmUp(WARM_UP_ROUNDS, config.sandbox().workers());
    }
    return this;
  }

  /**
   * What the person who started the app needs to know, in a few plain lines: where it serves, the instructor's
   * secret, how the sandbox confines learners' code, and whether the engine lab runs.
   */
  public List<String> startupLines() {
    return StartupLines.of(port(), config, secretNews, sandbox, engineLab.engines());
  }

  /** The app could not start for a reason the person starting it can fix; the message says how. */
  public static final class StartException extends RuntimeException {
    StartException(String message) {
      super(message, null, false, false);
    }
  }

  /** Completes when the shipped snippets' runs at the start are over (see {@link ShippedRuns}). */
  public CompletableFuture<Void> warmedUp() {
    return warmedUp;
  }

  /** Completes with the port as soon as the server listens, while {@link #start} may still be starting the rest. */
  public CompletableFuture<Integer> listening() {
    return listening;
  }

  public SandboxService sandbox() {
    return sandbox;
  }

  public int port() {
    return javalin.port();
  }

  /** The app's meter registry, live streams and graceful stop. */
  public Operations ops() {
    return ops;
  }

  /**
   * Stops gracefully: refuses new connections, ends live SSE streams with a reconnect hint, lets in-flight requests
   * finish (up to the drain timeout; sandbox runs still complete), then answers any runs still waiting and ends the
   * sandbox workers, and closes the classroom's ticker and the database pool.
   */
  public void stop() {
    try {
      ops.beginShutdown(javalin);
      javalin.stop();
    } finally {
      try {
        sandbox.close();
        engineLab.close();
        classroom.close();
        database.close();
      } finally {
        ops.close();
      }
    }
  }

  /** The sandbox's confinement as the instructor's pages show it. */
  private static SandboxNotice sandboxNotice(SandboxService sandbox) {
    if (sandbox.confinementLevel().equals("unchecked")) return SandboxNotice.notStarted();
    ConfinementReport report = sandbox.confinement();
    return new SandboxNotice(report.level().id(), report.missing(), report.nextStep());
  }
}
