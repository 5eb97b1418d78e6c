package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.SourceField;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.FutureAnswers;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP for the fix-the-sink exercises: {@code GET /api/exercises}, {@code GET /api/exercises/{id}} and
 * {@code POST /api/exercises/{id}/check} with {@code {"source": "...", "attempt": "<uuid>"}}. Each check is recorded
 * for the learner as an {@code exercise.check} event ({@link CheckLog}), exactly once per attempt id: the server
 * records the verdict of its own run, so progress and the quiz never trust a client's claim that it passed.
 * {@code GET /api/exercises/{id}/solution} gives the reference solution to a learner who has checked an attempt of
 * their own (403 before that). A failed check's answer carries a {@code digest} ({@link CheckDigest}) that the page
 * leads with: the first failure, the failures grouped by reason, and a hint from the exercise's data.
 */
public final class ExerciseRoutes {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FIELDS = List.of("source", "attempt");

  private final ExerciseCatalog exercises;
  private final CodeRunner sandbox;
  private final ExerciseChecks checks;
  private final CheckLog checkLog;
  private final Learners learners;
  private final ClientKeys clients;

  public ExerciseRoutes(ExerciseCatalog exercises, CodeRunner sandbox, EventLog events, Learners learners,
                        ClientKeys clients) {
    this.clients = clients;
    this.exercises = exercises;
    this.sandbox = sandbox;
    this.checks = new ExerciseChecks(sandbox);
    this.checkLog = new CheckLog(events);
    this.learners = learners;
  }

  record Summary(String id, String title, String lesson) {}

  record Detail(String id, String title, String lesson, String description, String source) {}

  record Solution(String id, String source) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/exercises", ctx -> ctx.json(exercises.all().stream()
        .map(e -> new Summary(e.id(), e.title(), e.lesson())).toList()));
    routes.get("/api/exercises/{id}", ctx -> {
      Exercise e = find(ctx);
      ctx.json(new Detail(e.id(), e.title(), e.lesson(), e.description(), e.source()));
    });
    routes.post("/api/exercises/{id}/check", this::check);
    routes.get("/api/exercises/{id}/solution", this::solution);
  }

  /** Try first, then compare: the reference solution opens once the learner has a recorded check of the exercise. */
  private void solution(Context ctx) {
    Exercise exercise = find(ctx);
    Optional<String> learner = learners.current(ctx);
    if (learner.isEmpty() || !checkLog.checked(learner.get(), exercise)) {
      throw new ForbiddenResponse("check an attempt of your own first: the reference solution of '" + exercise.title()
          + "' opens after your first Check");
    }
    ctx.header("Cache-Control", "no-store");
    ctx.json(new Solution(exercise.id(), exercise.solution()));
  }

  private Exercise find(Context ctx) {
    String id = ctx.pathParam("id");
    return exercises.find(id).orElseThrow(() -> new NotFoundResponse("no exercise '" + id + "'"));
  }

  private void check(Context ctx) {
    Exercise exercise = find(ctx);
    int limit = sandbox.limits().maxSourceBytes();
    JsonFields body = JsonRequests.read(ctx, SourceField.maxBodyBytes(limit), FIELDS);
    String text = SourceField.read(body, limit, "check");
    String attempt = attempt(body);
    String learner = learners.currentOrCreate(ctx); // a tampered cookie fails here, before anything runs or is stored
    Optional<RecordedEvent> earlier = checkLog.earlier(learner, attempt);
    if (earlier.isPresent()) {
      answerRecorded(ctx, exercise, earlier.get(), CheckLog.event(exercise, attempt, text));
      return;
    }
    CompletableFuture<CheckResult> result = checks.check(clients.client(ctx), exercise, text); // a full queue: 429 (ErrorResponses)
    FutureAnswers.answer(ctx, result, checked -> {
      if (checked.status() == Outcome.INTERNAL_ERROR) { // the service's fault, not an attempt of the learner's
        ctx.json(answer(exercise, JSON.valueToTree(checked), attempt, null, false));
        return;
      }
      EventLog.Outcome recorded = checkLog.record(learner, exercise, attempt, text, checked);
      if (recorded instanceof EventLog.Outcome.Stored) {
        ctx.json(answer(exercise, JSON.valueToTree(checked), attempt, recorded.event().recordedAt().toString(), false));
      } else {
        answerRecorded(ctx, exercise, recorded.event(), CheckLog.event(exercise, attempt, text)); // a resend won
      }
    });
  }

  /** A resent attempt: the recorded verdicts when it is the same check, else 409 and nothing stored. */
  private static void answerRecorded(Context ctx, Exercise exercise, RecordedEvent recorded, NewEvent resent) {
    if (!recorded.sameBodyAs(resent)) {
      ctx.status(409).json(Map.of("error", "attempt '" + resent.id() + "' was already used for "
          + (recorded.type().equals(CheckLog.TYPE) ? "a check of other code" : "another event")
          + "; nothing was stored: send a new attempt id with each Check"));
      return;
    }
    ctx.json(answer(exercise, CheckLog.repeated(recorded), recorded.id(), recorded.recordedAt().toString(), true));
  }

  /**
   * The check as answered, with its {@code digest} ({@link CheckDigest}) when scenarios failed. The digest is made
   * from the verdicts each time they are answered, never stored, so a recorded check answered again gets one too.
   */
  private static ObjectNode answer(Exercise exercise, ObjectNode check, String attempt, String recordedAt,
                                   boolean repeated) {
    List<ScenarioVerdict> scenarios = new ArrayList<>();
    for (JsonNode s : check.path("scenarios")) {
      List<String> verdicts = new ArrayList<>();
      s.path("verdicts").forEach(v -> verdicts.add(v.asText()));
      scenarios.add(new ScenarioVerdict(s.path("name").asText(), s.path("passed").asBoolean(), verdicts));
    }
    CheckDigest.of(exercise.hints(), scenarios).ifPresent(d -> check.set("digest", JSON.valueToTree(d)));
    check.put("attempt", attempt);
    if (recordedAt != null) check.put("recordedAt", recordedAt);
    check.put("repeated", repeated);
    return check;
  }

  private static String attempt(JsonFields body) {
    String attempt = body.optionalText("attempt").orElseGet(() -> UUID.randomUUID().toString());
    if (!NewEvent.isEventId(attempt)) {
      throw new BadRequestResponse("'attempt' must be a UUID such as 0b6f4ad2-9d1c-4e31-a6f5-2c8e0b7d9a10 (a new one "
          + "for each Check), got \"" + attempt + "\"");
    }
    return attempt.toLowerCase(Locale.ROOT);
  }
}
