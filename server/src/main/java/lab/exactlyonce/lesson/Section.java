package lab.exactlyonce.lesson;

import java.util.List;

/**
 * A titled part of a tab, made of blocks. {@code intro} is optional Markdown shown under the title; {@code topic} is
 * the id of the lesson topic its items belong to unless they name their own.
 */
public record Section(String id, Tab tab, String title, String topic, String intro, List<Block> blocks) {
  public Section {
    id = Checks.id(id, "id");
    if (tab == null) throw new IllegalArgumentException("missing required field 'tab'");
    title = Checks.text(title, "title");
    topic = Checks.optional(topic);
    intro = Checks.optional(intro);
    blocks = Checks.list(blocks);
  }
}
