package lab.exactlyonce.enginelab;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import io.javalin.http.ServiceUnavailableResponse;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * HTTP for the engine lab: {@code GET /api/lab/scenarios}, {@code POST /api/lab/real-runs}
 * {@code {"scenario", "knobs"}} (202 with the run's id and place in the queue, or 200 with the kept result for the
 * same settings) and {@code GET /api/lab/real-runs/{id}}. When the lab is off, the scenarios say so and how to turn it
 * on, and a run is refused with 503.
 */
public final class EngineLabRoutes implements AutoCloseable {
  static final String HOW_TO_ENABLE = "the engine lab is off on this server: build it with mvn package and restart"
      + " the app without --engine-lab off, or with --engine-lab on";
  private static final List<String> FIELDS = List.of("scenario", "knobs");
  private static final int MAX_BODY_BYTES = 2_000;
  private static final Pattern RUN_ID = Pattern.compile("[0-9a-f]{16}");

  private final EngineLabSettings settings;
  private final Scenarios scenarios;
  private final RealRuns runs;
  private final ClientKeys clients;

  public EngineLabRoutes(EngineLabSettings settings, SnippetCatalog snippets, ClientKeys clients) {
    this.settings = settings;
    this.clients = clients;
    this.scenarios = new Scenarios(snippets);
    this.runs = settings.enabled() ? new RealRuns(new EngineProcess(settings), settings.queueLength()) : null;
  }

  record ScenarioView(String id, String title, String summary, String simulation, List<Knob> knobs) {}

  /**
   * @param engines {@code warm}, {@code warming} or {@code stopped} (null when the lab is off)
   * @param typicalRunSeconds the median of the latest runs' times here (a first guess before any)
   */
  record Catalog(boolean enabled, String enable, List<ScenarioView> scenarios, String engines, Long typicalRunSeconds) {}

  /**
   * Warms the engines up (when the lab is on) without waiting for them: called as the app starts, so that the first
   * learner's run takes a warm run's time.
   */
  public void start() {
    if (runs != null) runs.warmUp(scenarios.all().get(0));
  }

  /** The engines as {@code /healthz} reports them: {@code off}, {@code warming}, {@code warm} or {@code stopped}. */
  public String engines() {
    return runs == null ? "off" : runs.engines();
  }

  public void register(RoutesConfig routes) {
    routes.get("/api/lab/scenarios", ctx -> {
      // A page that offers real runs is about to ask for one: engines stopped after an idle time start again now.
      start();
      ctx.json(new Catalog(settings.enabled(), settings.enabled() ? "" : HOW_TO_ENABLE, scenarios.all().stream()
          .map(s -> new ScenarioView(s.id(), s.title(), s.summary(), s.simulation(), s.knobs())).toList(),
          runs == null ? null : runs.engines(), runs == null ? null : runs.typicalSeconds()));
    });
    routes.post("/api/lab/real-runs", this::submit);
    routes.get("/api/lab/real-runs/{id}", this::status);
  }

  private void submit(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, MAX_BODY_BYTES, FIELDS);
    Scenario scenario = scenarios.find(body.text("scenario"));
    Map<String, Object> knobs = scenario.knobValues(body.optionalObject("knobs").orElse(null));
    if (runs == null) throw new ServiceUnavailableResponse(HOW_TO_ENABLE);
    RealRuns.View run = runs.submit(scenario, knobs, clients.client(ctx));
    ctx.status(run.status().equals("done") ? HttpStatus.OK : HttpStatus.ACCEPTED).json(run);
  }

  private void status(Context ctx) {
    String id = ctx.pathParam("id");
    if (runs == null) throw new ServiceUnavailableResponse(HOW_TO_ENABLE);
    RealRuns.View run = (RUN_ID.matcher(id).matches() ? runs.find(id) : Optional.<RealRuns.View>empty())
        .orElseThrow(() -> new NotFoundResponse("no real run with that id; a run's id comes from POST /api/lab/real-runs"));
    ctx.json(run);
  }

  @Override
  public void close() {
    if (runs != null) runs.close();
  }
}
