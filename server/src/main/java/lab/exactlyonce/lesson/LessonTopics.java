package lab.exactlyonce.lesson;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks the lesson's topic vocabulary: a short list of topics, each id and title used once, and every section,
 * flow, key idea and question pointing at one of them. A question without its own topic takes its section's, so a
 * section always names one: the quiz's filter, its score by topic and the classroom's picker then list the
 * vocabulary and nothing else.
 */
final class LessonTopics {
  private final LessonFile file;
  private final Set<String> ids = new HashSet<>();
  private final String known;

  private LessonTopics(Lesson lesson, LessonFile file) {
    this.file = file;
    this.known = lesson.topics().stream().map(Lesson.Topic::id).collect(Collectors.joining(", "));
  }

  static void check(Lesson lesson, LessonFile file) {
    var topics = new LessonTopics(lesson, file);
    topics.vocabulary(lesson.topics());
    for (int i = 0; i < lesson.keyIdeas().size(); i++) {
      topics.required(lesson.keyIdeas().get(i).topic(), "keyIdeas[" + i + "]");
    }
    for (int s = 0; s < lesson.sections().size(); s++) {
      Section section = lesson.sections().get(s);
      String at = "sections[" + s + "]";
      topics.required(section.topic(), at);
      for (int b = 0; b < section.blocks().size(); b++) {
        if (!(section.blocks().get(b) instanceof Block.Questions questions)) continue;
        for (int q = 0; q < questions.items().size(); q++) {
          String topic = questions.items().get(q).topic();
          if (topic != null) topics.known(topic, at + ".blocks[" + b + "].items[" + q + "].topic");
        }
      }
    }
    for (int f = 0; f < lesson.flows().size(); f++) topics.required(lesson.flows().get(f).topic(), "flows[" + f + "]");
  }

  private void vocabulary(List<Lesson.Topic> topics) {
    if (topics.isEmpty()) {
      throw file.problem("", "missing required field 'topics' (the lesson's topic vocabulary: id and title of each)");
    }
    Set<String> titles = new HashSet<>();
    for (int i = 0; i < topics.size(); i++) {
      Lesson.Topic topic = topics.get(i);
      if (!ids.add(topic.id())) throw file.problem("topics[" + i + "].id", "topic id '" + topic.id() + "' is already used");
      if (!titles.add(topic.title())) {
        throw file.problem("topics[" + i + "].title", "topic title '" + topic.title() + "' is already used");
      }
    }
  }

  private void required(String topic, String at) {
    if (topic == null) throw file.problem(at, "missing required field 'topic' (one of: " + known + ")");
    known(topic, at + ".topic");
  }

  private void known(String topic, String at) {
    if (!ids.contains(topic)) throw file.problem(at, "no topic '" + topic + "' in 'topics'; topics: " + known);
  }
}
