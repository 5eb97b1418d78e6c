package lab.exactlyonce.lesson;

import java.util.List;

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

  public List<Section> sectionsOn(Tab tab) {
    return sections.stream().filter(s -> s.tab() == tab).toList();
  }
}
