package lab.exactlyonce.lesson;

import java.util.HashSet;
import java.util.Set;

/** Checks what a single record cannot: ids unique across the lesson, and every reference pointing at something. */
final class LessonReferences {
  private LessonReferences() {}

  static void check(Lesson lesson, String file) {
    Set<String> ids = new HashSet<>();
    java.util.function.BiConsumer<String, String> unique = (id, where) -> {
      if (!ids.add(id)) throw new LessonFormatException(file + ": " + where + ": id '" + id + "' is used twice in the lesson");
    };
    for (int i = 0; i < lesson.keyIdeas().size(); i++) unique.accept(lesson.keyIdeas().get(i).id(), "keyIdeas[" + i + "]");
    for (int s = 0; s < lesson.sections().size(); s++) {
      Section section = lesson.sections().get(s);
      String at = "sections[" + s + "]";
      unique.accept(section.id(), at);
      for (int b = 0; b < section.blocks().size(); b++) {
        Block block = section.blocks().get(b);
        String blockAt = at + ".blocks[" + b + "]";
        unique.accept(block.id(), blockAt);
        for (String itemId : itemIds(block)) unique.accept(itemId, blockAt);
      }
    }
    for (int m = 0; m < lesson.maps().size(); m++) {
      LessonMap map = lesson.maps().get(m);
      String at = "maps[" + m + "]";
      unique.accept(map.id(), at);
      Set<String> nodeIds = new HashSet<>();
      for (LessonMap.Node node : map.nodes()) {
        unique.accept(node.id(), at + ".nodes");
        nodeIds.add(node.id());
      }
      for (int e = 0; e < map.edges().size(); e++) {
        LessonMap.Edge edge = map.edges().get(e);
        unique.accept(edge.id(), at + ".edges[" + e + "]");
        if (!nodeIds.contains(edge.from())) missing(file, at + ".edges[" + e + "].from", "node", edge.from());
        if (!nodeIds.contains(edge.to())) missing(file, at + ".edges[" + e + "].to", "node", edge.to());
      }
    }
    for (int f = 0; f < lesson.flows().size(); f++) {
      DecisionFlow flow = lesson.flows().get(f);
      String at = "flows[" + f + "]";
      unique.accept(flow.id(), at);
      Set<String> stepIds = new HashSet<>();
      for (DecisionFlow.Step step : flow.steps()) {
        unique.accept(step.id(), at + ".steps");
        stepIds.add(step.id());
      }
      if (!stepIds.contains(flow.start())) missing(file, at + ".start", "step", flow.start());
      for (int st = 0; st < flow.steps().size(); st++) {
        for (DecisionFlow.Next next : flow.steps().get(st).next()) {
          if (!stepIds.contains(next.to())) missing(file, at + ".steps[" + st + "].next", "step", next.to());
        }
      }
    }
  }

  private static Set<String> itemIds(Block block) {
    Set<String> out = new java.util.LinkedHashSet<>();
    if (block instanceof Block.Steps b) b.items().forEach(i -> out.add(i.id()));
    else if (block instanceof Block.Cards b) b.items().forEach(i -> out.add(i.id()));
    else if (block instanceof Block.Table b) b.rows().forEach(r -> out.add(r.id()));
    else if (block instanceof Block.Pairs b) b.items().forEach(i -> out.add(i.id()));
    else if (block instanceof Block.Questions b) b.items().forEach(i -> out.add(i.id()));
    else if (block instanceof Block.Scenario b) {
      b.cards().forEach(i -> out.add(i.id()));
      b.questions().forEach(q -> out.add(q.id()));
    }
    return out;
  }

  private static void missing(String file, String where, String kind, String id) {
    throw new LessonFormatException(file + ": " + where + ": no " + kind + " '" + id + "' in this lesson");
  }
}
