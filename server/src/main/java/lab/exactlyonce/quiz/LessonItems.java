package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.Section;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The items of a lesson a written question can be about, each with the tab it is on and the section it is in, and
 * which ideas count as one: an interview question that rephrases a ladder rung is the same idea as the rung.
 */
final class LessonItems {
  /** Where an item stands: its tab, the title of its lesson topic and what kind of item it is. */
  record Item(String id, String tab, String topic, String kind) {}

  private final Map<String, Item> items = new LinkedHashMap<>();
  private final Map<String, String> rephrased = new LinkedHashMap<>();

  LessonItems(Lesson lesson) {
    for (Lesson.KeyIdea idea : lesson.keyIdeas()) put(idea.id(), "gist", lesson.topic(idea.topic()).title(), "key idea");
    for (Section section : lesson.sections()) {
      String tab = section.tab().id();
      String topic = lesson.topicOf(section, null).title();
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions qs) {
          for (Block.Question q : qs.items()) put(q.id(), tab, lesson.topicOf(section, q.topic()).title(), kind(block));
        }
        put(block.id(), tab, topic, "block");
        for (String id : inside(block)) put(id, tab, topic, kind(block));
        if (block instanceof Block.Questions qs) {
          for (Block.Question q : qs.items()) if (q.rephrases() != null) rephrased.put(q.id(), q.rephrases());
        }
      }
    }
  }

  private void put(String id, String tab, String section, String kind) {
    items.putIfAbsent(id, new Item(id, tab, section, kind));
  }

  Optional<Item> find(String id) {
    return Optional.ofNullable(items.get(id));
  }

  /** The idea an item stands for: the ladder rung it rephrases, or itself. */
  String idea(String item) {
    return rephrased.getOrDefault(item, item);
  }

  private static String kind(Block block) {
    if (block instanceof Block.Pairs p) return QuestionGenerator.isMythLabel(p.claimLabel()) ? "misconception" : "trap";
    if (block instanceof Block.Table) return "table row";
    if (block instanceof Block.Cards) return "failure mode";
    if (block instanceof Block.Questions) return "question";
    if (block instanceof Block.Scenario) return "scenario";
    return "step";
  }

  private static List<String> inside(Block block) {
    if (block instanceof Block.Steps b) return b.items().stream().map(Block.Item::id).toList();
    if (block instanceof Block.Cards b) return b.items().stream().map(Block.Item::id).toList();
    if (block instanceof Block.Table b) return b.rows().stream().map(Block.Row::id).toList();
    if (block instanceof Block.Pairs b) return b.items().stream().map(Block.Pair::id).toList();
    if (block instanceof Block.Questions b) return b.items().stream().map(Block.Question::id).toList();
    if (block instanceof Block.Scenario b) {
      return Stream.concat(b.cards().stream().map(Block.Item::id),
          b.questions().stream().map(Block.ScenarioQuestion::id)).toList();
    }
    return List.of();
  }
}
