package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.web.JsonFields;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** The study-progress event types and their rules. */
final class ProgressKinds {
  static final String SECTION_READ = "section.read";
  static final String MAP_NODE = "map.node";
  static final String MAP_EDGE = "map.edge";
  static final String LADDER_REVEAL = "ladder.reveal";
  static final String SELF_RATING = "self.rating";
  static final String SNIPPET_RUN = "snippet.run";
  /** Written by {@code DELETE /api/progress/{lesson}}, never accepted from clients. */
  static final String RESET = "progress.reset";
  static final List<String> RATING_LABELS = List.of("Again", "Hard", "Good", "Easy");
  static final List<String> OUTCOMES = Arrays.stream(Outcome.values()).map(Outcome::id).toList();

  private ProgressKinds() {}

  static List<EventKind> all(Function<Lesson, LessonItems> items) {
    return List.of(
        kind(SECTION_READ, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).tabOf(item) != null, "section");
          noData(data);
        }),
        kind(MAP_NODE, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).nodes().contains(item), "map node");
          noData(data);
        }),
        kind(MAP_EDGE, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).edges().contains(item), "map edge");
          noData(data);
        }),
        kind(LADDER_REVEAL, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).ladder().contains(item), "ladder question");
          noData(data);
        }),
        kind(SELF_RATING, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).ladder().contains(item), "ladder question");
          JsonFields fields = JsonFields.of(data, "data", List.of("rating"));
          int rating = fields.integer("rating");
          if (rating < 1 || rating > 4) {
            throw new BadRequestResponse("'" + fields.path("rating") + "' must be a whole number from 1 (Again) to 4 (Easy), got "
                + rating);
          }
        }),
        kind(SNIPPET_RUN, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).snippets().contains(item), "snippet");
          JsonFields fields = JsonFields.of(data, "data", List.of("status"));
          String status = fields.text("status");
          if (!OUTCOMES.contains(status)) {
            throw new BadRequestResponse("'" + fields.path("status") + "' must be one of " + String.join(", ", OUTCOMES)
                + ", got \"" + status + "\"");
          }
        }));
  }

  interface Rule {
    void check(Lesson lesson, String item, ObjectNode data);
  }

  private static EventKind kind(String type, Rule rule) {
    return new EventKind() {
      @Override public String type() { return type; }
      @Override public void validate(Lesson lesson, String item, ObjectNode data) { rule.check(lesson, item, data); }
    };
  }

  private static void requireItem(Lesson lesson, String item, boolean exists, String what) {
    if (!exists) throw new BadRequestResponse("lesson '" + lesson.id() + "' has no " + what + " '" + item + "'");
  }

  private static void noData(ObjectNode data) {
    JsonFields.of(data, "data", List.of());
  }
}
