package lab.exactlyonce.lesson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One lesson, as read from {@code lessons/<id>/lesson.yaml}. Text fields hold Markdown (inline or block).
 * See {@code lessons/SCHEMA.md} for the file format.
 */
public record Lesson(String id, String title, String summary, List<KeyIdea> keyIdeas, List<Section> sections,
                     List<LessonMap> maps, List<DecisionFlow> flows) {
  public Lesson {
    id = Checks.id(id, "id");
    title = Checks.text(title, "title");
    summary = Checks.text(summary, "summary");
    keyIdeas = Checks.list(keyIdeas);
    sections = Checks.nonEmpty(sections, "sections");
    maps = Checks.list(maps);
    flows = Checks.list(flows);
  }

  /** A short statement the gist tab lists and the voice readout reads. */
  public record KeyIdea(String id, String text) {
    public KeyIdea {
      id = Checks.id(id, "id");
      text = Checks.text(text, "text");
    }
  }

  /** The ladder's questions by id, in page order. */
  public Map<String, Block.Question> ladder() {
    Map<String, Block.Question> out = new LinkedHashMap<>();
    for (Section section : sections) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q && q.ladder()) q.items().forEach(item -> out.put(item.id(), item));
      }
    }
    return out;
  }

  /** A question of a questions block (ladder or interview) by id. */
  public Optional<Block.Question> question(String id) {
    for (Section section : sections) {
      for (Block block : section.blocks()) {
        if (!(block instanceof Block.Questions q)) continue;
        for (Block.Question item : q.items()) if (item.id().equals(id)) return Optional.of(item);
      }
    }
    return Optional.empty();
  }

  public List<Section> sectionsOn(Tab tab) {
    return sections.stream().filter(s -> s.tab() == tab).toList();
  }
}
