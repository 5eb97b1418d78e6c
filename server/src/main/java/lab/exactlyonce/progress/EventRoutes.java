package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.web.JsonRequests;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

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
  private static final Set<String> FIELDS = Set.of("id", "type", "lesson", "item", "data");

  private final LessonCatalog catalog;
  private final EventLog log;
  private final Learners learners;
  private final Map<String, EventKind> kinds = new LinkedHashMap<>();
  private final Map<String, LessonItems> itemsByLesson = new ConcurrentHashMap<>();
  private final Function<String, List<String>> exercisesOf;

  /**
   * @param more event types other features accept through {@code POST /api/events}, such as {@code quiz.answer}
   * @param exercisesOf a lesson id's fix-the-sink exercise ids, whose checks count on the Sandbox tab
   */
  public EventRoutes(LessonCatalog catalog, EventLog log, Learners learners, List<EventKind> more,
                     Function<String, List<String>> exercisesOf) {
    this.catalog = catalog;
    this.log = log;
    this.learners = learners;
    this.exercisesOf = exercisesOf;
    for (EventKind kind : ProgressKinds.all(this::items)) kinds.put(kind.type(), kind);
    for (EventKind kind : more) {
      if (kinds.putIfAbsent(kind.type(), kind) != null) throw new IllegalArgumentException("event type '" + kind.type() + "' registered twice");
    }
  }

  public void register(RoutesConfig routes) {
    routes.post("/api/events", this::record);
    routes.get("/api/progress/{lesson}", this::progress);
    routes.delete("/api/progress/{lesson}", this::reset);
  }

  /** A learner's progress in a lesson derived from their events there, oldest first (the classroom dashboard). */
  public Progress derive(Lesson lesson, List<RecordedEvent> events) {
    return Progress.derive(lesson.id(), items(lesson), events);
  }

  private LessonItems items(Lesson lesson) {
    return itemsByLesson.computeIfAbsent(lesson.id(), id -> LessonItems.of(lesson, exercisesOf.apply(id)));
  }

  private void record(Context ctx) {
    ObjectNode body = JsonRequests.object(ctx, MAX_EVENT_BYTES);
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

  private NewEvent parse(ObjectNode body) {
    var unknown = new ArrayList<String>();
    body.fieldNames().forEachRemaining(f -> { if (!FIELDS.contains(f)) unknown.add(f); });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse("unknown field '" + unknown.get(0) + "'; an event has id, type, lesson, item and data");
    }
    String type = text(body, "type");
    if (type == null || !kinds.containsKey(type)) {
      throw new BadRequestResponse("unknown event type " + (type == null ? "(missing 'type')" : "'" + type + "'")
          + "; known types: " + String.join(", ", kinds.keySet()));
    }
    JsonNode data = body.get("data");
    if (data != null && !data.isNull() && !data.isObject()) throw new BadRequestResponse("'data' must be a JSON object");
    try {
      return new NewEvent(text(body, "id"), type, text(body, "lesson"), text(body, "item"),
          data == null || data.isNull() ? null : (ObjectNode) data);
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse(e.getMessage());
    }
  }

  private static String text(ObjectNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) return null;
    if (!value.isTextual()) throw new BadRequestResponse("'" + field + "' must be a string, got " + value);
    return value.asText();
  }

  private Lesson lesson(String id) {
    return catalog.find(id).orElseThrow(() -> new BadRequestResponse("no lesson '" + id + "'; lessons here: "
        + String.join(", ", catalog.all().stream().map(Lesson::id).toList())));
  }

  private void progress(Context ctx) {
    Lesson lesson = catalog.require(ctx.pathParam("lesson"));
    Optional<String> learner = learners.current(ctx);
    List<RecordedEvent> events = learner.map(l -> log.inLesson(l, lesson.id())).orElse(List.of());
    ctx.header("Cache-Control", "no-store");
    ctx.json(Progress.derive(lesson.id(), items(lesson), events));
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
    ctx.json(Progress.derive(lesson.id(), items(lesson),
        learner.map(l -> log.inLesson(l, lesson.id())).orElse(List.of())));
  }
}
