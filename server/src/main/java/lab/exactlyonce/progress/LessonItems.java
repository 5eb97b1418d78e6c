package lab.exactlyonce.progress;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonMap;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.lesson.Tab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ids in one lesson that progress can point at, in page order: sections (per tab), map nodes and edges, ladder
 * questions, runnable snippets and fix-the-sink exercises. Each tab's progress counts its sections read plus its own
 * items: Maps adds nodes and edges explored, Q&A adds ladder answers revealed, Sandbox adds snippets run and
 * exercises passed.
 */
record LessonItems(Map<Tab, List<String>> sectionsByTab, Set<String> nodes, Set<String> edges, List<String> ladder,
                   List<String> snippets, List<String> exercises) {

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
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q && q.ladder()) q.items().forEach(i -> ladder.add(i.id()));
        if (block instanceof Block.Snippet s && !snippets.contains(s.snippet())) snippets.add(s.snippet());
      }
    }
    return new LessonItems(Map.copyOf(byTab), Set.copyOf(nodes), Set.copyOf(edges), List.copyOf(ladder), List.copyOf(snippets),
        List.copyOf(exercises));
  }

  Tab tabOf(String sectionId) {
    for (var entry : sectionsByTab.entrySet()) if (entry.getValue().contains(sectionId)) return entry.getKey();
    return null;
  }

  int total(Tab tab) {
    int sections = sectionsByTab.get(tab).size();
    switch (tab) {
      case MAPS: return sections + nodes.size() + edges.size();
      case QA: return sections + ladder.size();
      case SANDBOX: return sections + snippets.size() + exercises.size();
      default: return sections;
    }
  }
}
