package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * HTTP for events and progress:
 * <ul>
 *   <li>{@code POST /api/events}: record one event exactly once (200 with the original response on a retry, 409
 *   when the id was used for a different event);</li>
 *   <li>{@code GET /api/progress/{lesson}}: the learner's derived {@link Progress};</li>
 *   <li>{@code DELETE /api/progress/{lesson}}: reset it (appends a {@code progress.reset} marker; events are kept).</li>
 * </ul>
 */
public final class EventRoutes {
  /** The most an event may weigh, as sent. */
  public static final int MAX_EVENT_BYTES = 4096;
  private static final List<String> FIELDS = List.of("id", "type", "lesson", "item", "data");

  private final LessonCatalog catalog;
  private final EventLog log;
  private final Learners learners;
  private final Progresses progresses;
  private final Map<String, EventKind> kinds = new LinkedHashMap<>();

  /** @param more event types other features accept through {@code POST /api/events}, such as {@code quiz.answer} */
  public EventRoutes(LessonCatalog catalog, EventLog log, Progresses progresses, Learners learners, List<EventKind> more) {
    this.catalog = catalog;
    this.log = log;
    this.progresses = progresses;
    this.learners = learners;
    for (EventKind kind : ProgressKinds.all(progresses::items)) kinds.put(kind.type(), kind);
    for (EventKind kind : more) {
      if (kinds.putIfAbsent(kind.type(), kind) != null) throw new IllegalArgumentException("event type '" + kind.type() + "' registered twice");
    }
  }

  public void register(RoutesConfig routes) {
    routes.post("/api/events", this::record);
    routes.get("/api/progress/{lesson}", this::progress);
    routes.delete("/api/progress/{lesson}", this::reset);
  }

  private void record(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, MAX_EVENT_BYTES, FIELDS);
    learners.current(ctx); // a tampered cookie fails before anything else is looked at
    NewEvent event = parse(body);
    Lesson lesson = lesson(event.lesson());
    EventKind kind = kinds.get(event.type());
    kind.validate(lesson, event.item(), event.data());
    String learner = learners.currentOrCreate(ctx);
    EventLog.Outcome outcome = log.record(learner, event, kind.fact(learner, event), e -> kind.result(learner, lesson, e));
    if (outcome instanceof EventLog.Outcome.Taken taken) {
      ctx.status(409).json(Map.of("error", taken.fact().refusal()));
      return;
    }
    if (outcome instanceof EventLog.Outcome.Conflict) {
      var conflict = new LinkedHashMap<String, Object>();
      conflict.put("error", "event id '" + event.id() + "' was already used for a different event ("
          + outcome.event().type() + " of '" + outcome.event().item() + "' in lesson '" + outcome.event().lesson()
          + "'); nothing was stored: send a new id for a new event");
      conflict.put("original", outcome.event().response());
      ctx.status(409).json(conflict);
      return;
    }
    ctx.json(kind.shown(learner, lesson, outcome.event()).response());
  }

  private NewEvent parse(JsonFields body) {
    String type = body.optionalText("type").orElse(null);
    if (type == null || !kinds.containsKey(type)) {
      throw new BadRequestResponse("unknown event type " + (type == null ? "(missing 'type')" : "'" + type + "'")
          + "; known types: " + String.join(", ", kinds.keySet()));
    }
    String id = body.optionalText("id").orElse(null);
    String lesson = body.optionalText("lesson").orElse(null);
    String item = body.optionalText("item").orElse(null);
    ObjectNode data = body.optionalObject("data").orElse(null);
    try {
      return new NewEvent(id, type, lesson, item, data);
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse(e.getMessage());
    }
  }

  private Lesson lesson(String id) {
    return catalog.find(id).orElseThrow(() -> new BadRequestResponse(catalog.unknown(id)));
  }

  private void progress(Context ctx) {
    Lesson lesson = catalog.require(ctx.pathParam("lesson"));
    Optional<String> learner = learners.current(ctx);
    ctx.header("Cache-Control", "no-store");
    ctx.json(progresses.of(learner, lesson));
  }

  /**
   * Reset keeps every event (the quiz and the export still see them) and appends a {@code progress.reset} marker;
   * progress is derived from the events after the latest marker, so the page shows zero.
   */
  private void reset(Context ctx) {
    Lesson lesson = catalog.require(ctx.pathParam("lesson"));
    Optional<String> learner = learners.current(ctx);
    if (learner.isPresent()) {
      log.record(learner.get(), new NewEvent(UUID.randomUUID().toString(), ProgressKinds.RESET, lesson.id(), lesson.id(),
          JsonNodeFactory.instance.objectNode()));
    }
    ctx.header("Cache-Control", "no-store");
    ctx.json(progresses.of(learner, lesson));
  }
}
