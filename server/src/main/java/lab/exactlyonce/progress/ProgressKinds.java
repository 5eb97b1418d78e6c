package lab.exactlyonce.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.sandbox.engine.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

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
          noData(SECTION_READ, data);
        }),
        kind(MAP_NODE, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).nodes().contains(item), "map node");
          noData(MAP_NODE, data);
        }),
        kind(MAP_EDGE, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).edges().contains(item), "map edge");
          noData(MAP_EDGE, data);
        }),
        kind(LADDER_REVEAL, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).ladder().contains(item), "ladder question");
          noData(LADDER_REVEAL, data);
        }),
        kind(SELF_RATING, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).ladder().contains(item), "ladder question");
          onlyFields(SELF_RATING, data, Set.of("rating"));
          JsonNode rating = data.get("rating");
          if (rating == null || !rating.isIntegralNumber() || rating.asLong() < 1 || rating.asLong() > 4) {
            throw new BadRequestResponse("'data.rating' must be a whole number from 1 (Again) to 4 (Easy), got "
                + (rating == null ? "nothing" : rating.toString()));
          }
        }),
        kind(SNIPPET_RUN, (lesson, item, data) -> {
          requireItem(lesson, item, items.apply(lesson).snippets().contains(item), "snippet");
          onlyFields(SNIPPET_RUN, data, Set.of("status"));
          JsonNode status = data.get("status");
          if (status == null || !status.isTextual() || !OUTCOMES.contains(status.asText())) {
            throw new BadRequestResponse("'data.status' must be one of " + String.join(", ", OUTCOMES) + ", got "
                + (status == null ? "nothing" : status.toString()));
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

  private static void noData(String type, ObjectNode data) {
    onlyFields(type, data, Set.of());
  }

  private static void onlyFields(String type, ObjectNode data, Collection<String> allowed) {
    var names = new ArrayList<String>();
    data.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      if (!allowed.contains(name)) {
        throw new BadRequestResponse("'" + type + "' events take " + (allowed.isEmpty() ? "no data fields"
            : "only " + allowed.stream().map(a -> "'data." + a + "'").collect(Collectors.joining(", ")))
            + ", got 'data." + name + "'");
      }
    }
  }
}
