package lab.exactlyonce.progress;

import lab.exactlyonce.lesson.Tab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A learner's progress in one lesson, derived from their stored events since the latest reset (nothing is counted
 * in place). Field names are the JSON of {@code GET /api/progress/{lesson}}.
 *
 * @param rungs ladder question id to whether its answer was revealed and the latest self-rating (1..4, or null)
 * @param snippets snippet id to how often it ran and the latest outcome
 * @param exercises every exercise of the lesson: how often it was checked, whether a check passed, and the latest
 *     check's status (null before the first check)
 * @param done the keys of the items done (see {@link LessonItems}: {@code kind:id}), in the order they were done
 * @param tabs tab id to items done, items in total, the fraction done and the keys of the tab's items
 * @param last the latest place the learner was, to resume there; null before any event
 */
public record Progress(String lesson, List<String> sectionsRead, List<String> nodesExplored, List<String> edgesExplored,
                       Map<String, Rung> rungs, Map<String, SnippetRuns> snippets, Map<String, ExerciseChecks> exercises,
                       List<String> done, Map<String, TabProgress> tabs, Location last) {
  /**
   * The type of the events the exercise feature records for every check it runs (never accepted from clients):
   * item the exercise id, result {@code {"status", "passed", ...}} as the server's own check found it.
   */
  public static final String EXERCISE_CHECK = "exercise.check";
  /** The type of the event a learner's page records for every run of a snippet; its data carries the outcome. */
  public static final String SNIPPET_RUN = ProgressKinds.SNIPPET_RUN;

  public record Rung(boolean revealed, Integer rating, String ratingLabel) {}

  public record SnippetRuns(int runs, String status) {}

  public record ExerciseChecks(int checks, boolean passed, String status) {}

  /** @param items the keys of the items that count on the tab: the page counts those it knows are done */
  public record TabProgress(int done, int total, double fraction, List<String> items) {}

  /** {@code hash} is the deep link to go back to, such as {@code #qa/L3}. */
  public record Location(String tab, String hash, String type, String item, String at) {}

  static Progress derive(String lesson, LessonItems items, List<RecordedEvent> events) {
    int start = 0;
    for (int i = 0; i < events.size(); i++) if (events.get(i).type().equals(ProgressKinds.RESET)) start = i + 1;
    var read = new LinkedHashSet<String>();
    var nodes = new LinkedHashSet<String>();
    var edges = new LinkedHashSet<String>();
    var rungs = new LinkedHashMap<String, Rung>();
    var snippets = new LinkedHashMap<String, SnippetRuns>();
    var exercises = new LinkedHashMap<String, ExerciseChecks>();
    var done = new LinkedHashSet<String>();
    for (String exercise : items.exercises()) exercises.put(exercise, new ExerciseChecks(0, false, null));
    Location last = null;
    String lastKey = null; // the item at last, as a LessonItems key
    for (RecordedEvent e : events.subList(start, events.size())) {
      String item = e.item();
      Location here = null;
      String hereKey = null;
      switch (e.type()) {
        case ProgressKinds.SECTION_READ:
          Tab tab = items.tabOf(item);
          if (tab == null) continue; // an id the lesson no longer has
          read.add(item);
          done.add(LessonItems.key(LessonItems.SECTION, item));
          // Reading a section is noticed when its end scrolls into view, often just after an answer revealed or a
          // snippet run inside it: the place to resume stays that item, the more precise of the two.
          if (lastKey != null && items.within(lastKey, item)) continue;
          here = location(tab, tab.id() + "/" + item, e);
          break;
        case ProgressKinds.MAP_NODE:
          if (!items.nodes().contains(item)) continue;
          nodes.add(item);
          done.add(LessonItems.key(LessonItems.NODE, item));
          here = location(Tab.MAPS, "maps/node/" + item, e);
          break;
        case ProgressKinds.MAP_EDGE:
          if (!items.edges().contains(item)) continue;
          edges.add(item);
          done.add(LessonItems.key(LessonItems.EDGE, item));
          here = location(Tab.MAPS, "maps/edge/" + item, e);
          break;
        case ProgressKinds.LADDER_REVEAL:
        case ProgressKinds.SELF_RATING:
          if (!items.ladder().contains(item)) continue;
          Rung before = rungs.getOrDefault(item, new Rung(false, null, null));
          if (e.type().equals(ProgressKinds.LADDER_REVEAL)) {
            rungs.put(item, new Rung(true, before.rating(), before.ratingLabel()));
          } else {
            int rating = e.data().path("rating").asInt();
            rungs.put(item, new Rung(true, rating, ProgressKinds.RATING_LABELS.get(rating - 1)));
          }
          hereKey = LessonItems.key(LessonItems.RUNG, item);
          done.add(hereKey);
          here = location(Tab.QA, "qa/" + item, e);
          break;
        case ProgressKinds.SNIPPET_RUN:
          if (!items.snippets().contains(item)) continue;
          SnippetRuns runs = snippets.getOrDefault(item, new SnippetRuns(0, null));
          snippets.put(item, new SnippetRuns(runs.runs() + 1, e.data().path("status").asText()));
          hereKey = LessonItems.key(LessonItems.SNIPPET, item);
          done.add(hereKey);
          here = location(Tab.SANDBOX, "sandbox/" + item, e);
          break;
        case EXERCISE_CHECK:
          if (!items.exercises().contains(item)) continue;
          ExerciseChecks earlier = exercises.get(item);
          ExerciseChecks checks = new ExerciseChecks(earlier.checks() + 1,
              earlier.passed() || e.result().path("passed").asBoolean(), e.result().path("status").asText());
          exercises.put(item, checks);
          if (checks.passed()) done.add(LessonItems.key(LessonItems.EXERCISE, item));
          here = location(Tab.SANDBOX, "sandbox/exercise/" + item, e);
          break;
        default:
          continue; // quiz answers and other features' events are not study progress
      }
      last = here;
      lastKey = hereKey;
    }
    var tabs = new LinkedHashMap<String, TabProgress>();
    for (Tab tab : Tab.values()) tabs.put(tab.id(), items.progressOn(tab, done));
    return new Progress(lesson, new ArrayList<>(read), new ArrayList<>(nodes), new ArrayList<>(edges), rungs, snippets,
        exercises, new ArrayList<>(done), tabs, last);
  }

  private static Location location(Tab tab, String path, RecordedEvent e) {
    return new Location(tab.id(), "#" + path, e.type(), e.item(), e.recordedAt().toString());
  }
}
