package lab.exactlyonce.lesson;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks what a single record cannot: ids unique across the lesson, and every reference (map edge ends, flow steps,
 * snippet names, the ladder question an interview question rephrases) pointing at something that exists.
 */
final class LessonReferences {
  private final LessonFile file;
  private final Map<String, String> firstUse = new HashMap<>();

  private LessonReferences(LessonFile file) {
    this.file = file;
  }

  /** @param snippetIds the ids of the files under {@code snippets/<lesson>/} */
  static void check(Lesson lesson, LessonFile file, Set<String> snippetIds, String snippetsFolder) {
    var refs = new LessonReferences(file);
    refs.ids(lesson);
    refs.maps(lesson);
    refs.flows(lesson);
    refs.snippets(lesson, snippetIds, snippetsFolder);
    refs.rephrasings(lesson);
  }

  private void ids(Lesson lesson) {
    for (int i = 0; i < lesson.keyIdeas().size(); i++) unique(lesson.keyIdeas().get(i).id(), "keyIdeas[" + i + "]");
    for (int s = 0; s < lesson.sections().size(); s++) {
      Section section = lesson.sections().get(s);
      String at = "sections[" + s + "]";
      unique(section.id(), at);
      for (int b = 0; b < section.blocks().size(); b++) {
        Block block = section.blocks().get(b);
        String blockAt = at + ".blocks[" + b + "]";
        unique(block.id(), blockAt);
        itemIds(block, blockAt).forEach((where, id) -> unique(id, where));
      }
    }
    for (int m = 0; m < lesson.maps().size(); m++) {
      LessonMap map = lesson.maps().get(m);
      unique(map.id(), "maps[" + m + "]");
      for (int n = 0; n < map.nodes().size(); n++) unique(map.nodes().get(n).id(), "maps[" + m + "].nodes[" + n + "]");
      for (int e = 0; e < map.edges().size(); e++) unique(map.edges().get(e).id(), "maps[" + m + "].edges[" + e + "]");
    }
    for (int f = 0; f < lesson.flows().size(); f++) {
      DecisionFlow flow = lesson.flows().get(f);
      unique(flow.id(), "flows[" + f + "]");
      for (int st = 0; st < flow.steps().size(); st++) unique(flow.steps().get(st).id(), "flows[" + f + "].steps[" + st + "]");
    }
  }

  private void maps(Lesson lesson) {
    for (int m = 0; m < lesson.maps().size(); m++) {
      LessonMap map = lesson.maps().get(m);
      Set<String> nodeIds = new HashSet<>();
      map.nodes().forEach(node -> nodeIds.add(node.id()));
      for (int e = 0; e < map.edges().size(); e++) {
        LessonMap.Edge edge = map.edges().get(e);
        String at = "maps[" + m + "].edges[" + e + "]";
        if (!nodeIds.contains(edge.from())) throw missing(at + ".from", "node", edge.from(), "map '" + map.id() + "'");
        if (!nodeIds.contains(edge.to())) throw missing(at + ".to", "node", edge.to(), "map '" + map.id() + "'");
      }
    }
  }

  private void flows(Lesson lesson) {
    for (int f = 0; f < lesson.flows().size(); f++) {
      DecisionFlow flow = lesson.flows().get(f);
      String at = "flows[" + f + "]";
      String where = "flow '" + flow.id() + "'";
      Set<String> stepIds = new HashSet<>();
      flow.steps().forEach(step -> stepIds.add(step.id()));
      if (!stepIds.contains(flow.start())) throw missing(at + ".start", "step", flow.start(), where);
      for (int st = 0; st < flow.steps().size(); st++) {
        List<DecisionFlow.Next> next = flow.steps().get(st).next();
        for (int n = 0; n < next.size(); n++) {
          if (!stepIds.contains(next.get(n).to())) {
            throw missing(at + ".steps[" + st + "].next[" + n + "].to", "step", next.get(n).to(), where);
          }
        }
      }
    }
  }

  private void snippets(Lesson lesson, Set<String> snippetIds, String snippetsFolder) {
    for (int s = 0; s < lesson.sections().size(); s++) {
      List<Block> blocks = lesson.sections().get(s).blocks();
      for (int b = 0; b < blocks.size(); b++) {
        String snippet = blocks.get(b) instanceof Block.Snippet x ? x.snippet()
            : blocks.get(b) instanceof Block.Exercise x ? x.snippet() : null;
        if (snippet != null && !snippetIds.contains(snippet)) {
          throw file.problem("sections[" + s + "].blocks[" + b + "].snippet", "no snippet '" + snippet + "' in "
              + snippetsFolder + " (snippets there: " + (snippetIds.isEmpty() ? "none" : String.join(", ", new TreeSet<>(snippetIds))) + ")");
        }
      }
    }
  }

  private void rephrasings(Lesson lesson) {
    Set<String> ladder = lesson.ladder().keySet();
    for (int s = 0; s < lesson.sections().size(); s++) {
      List<Block> blocks = lesson.sections().get(s).blocks();
      for (int b = 0; b < blocks.size(); b++) {
        if (!(blocks.get(b) instanceof Block.Questions q)) continue;
        for (int i = 0; i < q.items().size(); i++) {
          String target = q.items().get(i).rephrases();
          if (target == null) continue;
          String at = "sections[" + s + "].blocks[" + b + "].items[" + i + "].rephrases";
          if (q.ladder()) throw file.problem(at, "a ladder question cannot rephrase another; only interview questions do");
          if (!ladder.contains(target)) throw missing(at, "ladder question", target, "lesson '" + lesson.id() + "'");
        }
      }
    }
  }

  private void unique(String id, String at) {
    String path = at + ".id";
    String first = firstUse.putIfAbsent(id, path);
    if (first != null) {
      throw file.problem(path, "id '" + id + "' is already used at " + first + " (line " + file.lines().lineOf(first)
          + "); ids must be unique in the lesson");
    }
  }

  /** Items inside a block, keyed by where they stand (for example {@code ...blocks[0].items[2]}). */
  private static Map<String, String> itemIds(Block block, String at) {
    Map<String, String> out = new LinkedHashMap<>();
    if (block instanceof Block.Steps b) indexed(out, at + ".items", b.items().stream().map(Block.Item::id).toList());
    else if (block instanceof Block.Cards b) indexed(out, at + ".items", b.items().stream().map(Block.Item::id).toList());
    else if (block instanceof Block.Table b) indexed(out, at + ".rows", b.rows().stream().map(Block.Row::id).toList());
    else if (block instanceof Block.Pairs b) indexed(out, at + ".items", b.items().stream().map(Block.Pair::id).toList());
    else if (block instanceof Block.Questions b) indexed(out, at + ".items", b.items().stream().map(Block.Question::id).toList());
    else if (block instanceof Block.Scenario b) {
      indexed(out, at + ".cards", b.cards().stream().map(Block.Item::id).toList());
      indexed(out, at + ".questions", b.questions().stream().map(Block.ScenarioQuestion::id).toList());
    }
    return out;
  }

  private static void indexed(Map<String, String> out, String at, List<String> ids) {
    for (int i = 0; i < ids.size(); i++) out.put(at + "[" + i + "]", ids.get(i));
  }

  private LessonFormatException missing(String path, String kind, String id, String where) {
    return file.problem(path, "no " + kind + " '" + id + "' in " + where);
  }
}
