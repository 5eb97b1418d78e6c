package lab.exactlyonce.exercise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.progress.EventKind;
import lab.exactlyonce.sandbox.Sandbox;
import lab.exactlyonce.web.JsonRequests;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP for the fix-the-sink exercises: {@code GET /api/exercises}, {@code GET /api/exercises/{id}} and
 * {@code POST /api/exercises/{id}/check} with {@code {"source": "..."}}; and the {@code exercise.passed} progress
 * event type, whose item must be an exercise of the event's lesson.
 */
public final class ExerciseRoutes {
  public static final String PASSED = "exercise.passed";

  private final ExerciseCatalog exercises;
  private final Sandbox sandbox;
  private final ExerciseChecks checks;

  public ExerciseRoutes(ExerciseCatalog exercises, Sandbox sandbox) {
    this.exercises = exercises;
    this.sandbox = sandbox;
    this.checks = new ExerciseChecks(sandbox::run);
  }

  record Summary(String id, String title, String lesson) {}

  record Detail(String id, String title, String lesson, String description, String source) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/exercises", ctx -> ctx.json(exercises.all().stream()
        .map(e -> new Summary(e.id(), e.title(), e.lesson())).toList()));
    routes.get("/api/exercises/{id}", ctx -> {
      Exercise e = find(ctx);
      ctx.json(new Detail(e.id(), e.title(), e.lesson(), e.description(), e.source()));
    });
    routes.post("/api/exercises/{id}/check", this::check);
  }

  private Exercise find(Context ctx) {
    String id = ctx.pathParam("id");
    return exercises.find(id).orElseThrow(() -> new NotFoundResponse("no exercise '" + id + "'"));
  }

  private void check(Context ctx) {
    Exercise exercise = find(ctx);
    int limit = sandbox.settings().limits().maxSourceBytes() - exercise.harness().getBytes(StandardCharsets.UTF_8).length - 64;
    ObjectNode body = JsonRequests.object(ctx, 4 * limit + 1024);
    List<String> unknown = new ArrayList<>();
    body.fieldNames().forEachRemaining(name -> {
      if (!name.equals("source")) unknown.add("'" + name + "'");
    });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse((unknown.size() == 1 ? "unknown field " : "unknown fields ")
          + String.join(", ", unknown) + "; the only field is 'source'");
    }
    JsonNode source = body.get("source");
    if (source == null || source.isNull()) throw new BadRequestResponse("'source' is missing: send {\"source\": \"...\"}");
    if (!source.isTextual()) throw new BadRequestResponse("'source' must be a string");
    String text = source.textValue();
    if (text.isBlank()) throw new BadRequestResponse("'source' is blank: there is nothing to check");
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limit) {
      throw new HttpResponseException(413, "the source is " + bytes + " bytes; the limit for this exercise is " + limit + " bytes");
    }
    CompletableFuture<CheckResult> result;
    try {
      result = checks.check(ctx.ip(), exercise, text);
    } catch (Sandbox.BusyException busy) {
      ctx.header("Retry-After", String.valueOf(busy.retryAfterSeconds()));
      throw new HttpResponseException(429, busy.getMessage() + "; try again in " + busy.retryAfterSeconds() + " s");
    }
    ctx.future(() -> result.thenAccept(ctx::json));
  }

  /** {@code exercise.passed}: item is an exercise of the lesson; no data. */
  public EventKind passedKind() {
    return new EventKind() {
      @Override
      public String type() {
        return PASSED;
      }

      @Override
      public void validate(Lesson lesson, String item, ObjectNode data) {
        Exercise e = exercises.find(item == null ? "" : item).orElse(null);
        if (e == null || !e.lesson().equals(lesson.id())) {
          throw new BadRequestResponse("lesson '" + lesson.id() + "' has no exercise '" + item + "'");
        }
        if (data != null && data.size() > 0) {
          throw new BadRequestResponse("'" + PASSED + "' events take no data fields, got 'data." + data.fieldNames().next() + "'");
        }
      }
    };
  }
}
