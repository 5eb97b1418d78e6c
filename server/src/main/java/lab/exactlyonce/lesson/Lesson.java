package lab.exactlyonce.lesson;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One lesson, as read from {@code lessons/<id>/lesson.yaml}. Text fields hold Markdown (inline or block).
 * See {@code lessons/SCHEMA.md} for the file format.
 */
public record Lesson(String id, String title, String summary, List<Topic> topics, List<KeyIdea> keyIdeas,
                     List<Section> sections, List<LessonMap> maps, List<DecisionFlow> flows) {
  public Lesson {
    id = Checks.id(id, "id");
    title = Checks.text(title, "title");
    summary = Checks.text(summary, "summary");
    topics = Checks.list(topics);
    keyIdeas = Checks.list(keyIdeas);
    sections = Checks.nonEmpty(sections, "sections");
    maps = Checks.list(maps);
    flows = Checks.list(flows);
  }

  /**
   * One entry of the lesson's topic vocabulary: the quiz filters by it, scores by it, and the classroom's picker groups
   * by it. Every section, flow, key idea and question maps to one, checked by {@link LessonTopics}.
   */
  public record Topic(String id, String title) {
    public Topic {
      id = Checks.id(id, "id");
      title = Checks.text(title, "title");
    }
  }

  /** A short statement the gist tab lists and the voice readout reads; {@code topic} is a topic id. */
  public record KeyIdea(String id, String topic, String text) {
    public KeyIdea {
      id = Checks.id(id, "id");
      topic = Checks.optional(topic);
      text = Checks.text(text, "text");
    }
  }

  /** The topic with this id; use it only after {@link LessonTopics} has checked the lesson's references. */
  public Topic topic(String topicId) {
    for (Topic topic : topics) if (topic.id().equals(topicId)) return topic;
    throw new IllegalArgumentException("lesson '" + id + "' has no topic '" + topicId + "'");
  }

  /** The topic a section's item belongs to: its own when it names one, else its section's. */
  public Topic topicOf(Section section, String ownTopic) {
    return topic(ownTopic != null ? ownTopic : section.topic());
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
