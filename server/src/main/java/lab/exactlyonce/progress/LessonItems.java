package lab.exactlyonce.progress;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonMap;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.lesson.Tab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ids in one lesson that progress can point at, in page order: sections (per tab), map nodes and edges, ladder
 * questions, runnable snippets and fix-the-sink exercises; and the one place that says what counts on which tab.
 * Each tab counts its sections read plus its own items: Maps adds nodes and edges explored, Q&A adds ladder answers
 * revealed, Sandbox adds snippets run and exercises passed.
 *
 * <p>An item is named by a key, {@code kind:id} ({@code section:intro}, {@code node:sink}, {@code rung:L3}), so that
 * ids of different kinds never meet. The progress JSON lists each tab's keys and the keys done, and the page counts a
 * tab by membership, with its own waiting events added through {@link #DONE_BY}: it re-encodes no rule.
 */
record LessonItems(Map<Tab, List<String>> sectionsByTab, Set<String> nodes, Set<String> edges, List<String> ladder,
                   List<String> snippets, List<String> exercises, Map<String, String> sectionOf) {
  static final String SECTION = "section";
  static final String NODE = "node";
  static final String EDGE = "edge";
  static final String RUNG = "rung";
  static final String SNIPPET = "snippet";
  /** Done once a check passed; the server records checks itself, so no client event marks it. */
  static final String EXERCISE = "exercise";

  /** The kind of item each study-progress event a client records marks done (its item is the id). */
  static final Map<String, String> DONE_BY = orderedMap(
      ProgressKinds.SECTION_READ, SECTION,
      ProgressKinds.MAP_NODE, NODE,
      ProgressKinds.MAP_EDGE, EDGE,
      ProgressKinds.LADDER_REVEAL, RUNG,
      ProgressKinds.SELF_RATING, RUNG,
      ProgressKinds.SNIPPET_RUN, SNIPPET);

  /** @param exercises the lesson's exercise ids (the exercise feature knows them) */
  static LessonItems of(Lesson lesson, List<String> exercises) {
    var byTab = new LinkedHashMap<Tab, List<String>>();
    for (Tab tab : Tab.values()) byTab.put(tab, lesson.sectionsOn(tab).stream().map(Section::id).toList());
    var nodes = new LinkedHashSet<String>();
    var edges = new LinkedHashSet<String>();
    for (LessonMap map : lesson.maps()) {
      map.nodes().forEach(n -> nodes.add(n.id()));
      map.edges().forEach(e -> edges.add(e.id()));
    }
    var ladder = new ArrayList<String>();
    var snippets = new ArrayList<String>();
    var sectionOf = new LinkedHashMap<String, String>();
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q && q.ladder()) {
          q.items().forEach(i -> {
            ladder.add(i.id());
            sectionOf.put(key(RUNG, i.id()), section.id());
          });
        }
        if (block instanceof Block.Snippet s && !snippets.contains(s.snippet())) {
          snippets.add(s.snippet());
          sectionOf.put(key(SNIPPET, s.snippet()), section.id());
        }
      }
    }
    return new LessonItems(Map.copyOf(byTab), Collections.unmodifiableSet(nodes), Collections.unmodifiableSet(edges),
        List.copyOf(ladder), List.copyOf(snippets), List.copyOf(exercises), Collections.unmodifiableMap(sectionOf));
  }

  static String key(String kind, String id) {
    return kind + ":" + id;
  }

  /** Whether the item {@code key} ({@code rung:L2}) sits in section {@code sectionId}. */
  boolean within(String key, String sectionId) {
    return sectionId.equals(sectionOf.get(key));
  }

  Tab tabOf(String sectionId) {
    for (var entry : sectionsByTab.entrySet()) if (entry.getValue().contains(sectionId)) return entry.getKey();
    return null;
  }

  /** The keys of the items that count on {@code tab}, in page order. */
  List<String> on(Tab tab) {
    var keys = new ArrayList<String>();
    sectionsByTab.get(tab).forEach(id -> keys.add(key(SECTION, id)));
    switch (tab) {
      case MAPS -> {
        nodes.forEach(id -> keys.add(key(NODE, id)));
        edges.forEach(id -> keys.add(key(EDGE, id)));
      }
      case QA -> ladder.forEach(id -> keys.add(key(RUNG, id)));
      case SANDBOX -> {
        snippets.forEach(id -> keys.add(key(SNIPPET, id)));
        exercises.forEach(id -> keys.add(key(EXERCISE, id)));
      }
      default -> { }
    }
    return keys;
  }

  /** How much of {@code tab} is done, given the keys of the items done. */
  Progress.TabProgress progressOn(Tab tab, Set<String> done) {
    List<String> items = on(tab);
    int count = (int) items.stream().filter(done::contains).count();
    int total = items.size();
    return new Progress.TabProgress(count, total, total == 0 ? 0 : (double) count / total, items);
  }

  private static Map<String, String> orderedMap(String... pairs) {
    var map = new LinkedHashMap<String, String>();
    for (int i = 0; i < pairs.length; i += 2) map.put(pairs[i], pairs[i + 1]);
    return Collections.unmodifiableMap(map);
  }
}
