package lab.exactlyonce.lesson;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The lesson as {@code GET /api/lessons/{id}} sends it: the lesson's own fields, except that a question whose answer
 * is held back from the asker has {@code "answer": null} and {@code "held": true}.
 */
final class LessonJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LessonJson() {}

  static ObjectNode of(Lesson lesson, AnswerHolds.Held held) {
    ObjectNode root = JSON.valueToTree(lesson);
    if (held.isEmpty()) return root;
    ArrayNode sections = root.putArray("sections");
    for (Section s : lesson.sections()) {
      ObjectNode section = JSON.valueToTree(s);
      ArrayNode blocks = section.putArray("blocks");
      for (Block b : s.blocks()) blocks.add(b instanceof Block.Questions q ? questions(lesson, held, q) : JSON.valueToTree(b));
      sections.add(section);
    }
    return root;
  }

  private static ObjectNode questions(Lesson lesson, AnswerHolds.Held held, Block.Questions block) {
    ObjectNode out = JSON.valueToTree(block);
    ArrayNode items = out.putArray("items");
    for (Block.Question q : block.items()) {
      ObjectNode item = JSON.valueToTree(q);
      if (held.holding(lesson, q.id()) != null) {
        item.putNull("answer");
        item.put("held", true);
      }
      items.add(item);
    }
    return out;
  }
}
