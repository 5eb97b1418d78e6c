package lab.exactlyonce.lesson;

import java.util.List;

/** A titled part of a tab, made of blocks. {@code intro} is optional Markdown shown under the title. */
public record Section(String id, Tab tab, String title, String intro, List<Block> blocks) {
  public Section {
    id = Checks.id(id, "id");
    if (tab == null) throw new IllegalArgumentException("missing required field 'tab'");
    title = Checks.text(title, "title");
    intro = Checks.optional(intro);
    blocks = Checks.list(blocks);
  }
}
