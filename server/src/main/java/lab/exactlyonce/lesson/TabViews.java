package lab.exactlyonce.lesson;

import j2html.tags.DomContent;

/**
 * What other features draw inside a lesson page. The lesson feature owns the page; the maps view draws a lesson's
 * diagrams and flows on the Maps tab; the snippet view draws a runnable snippet wherever a {@code snippet} block
 * stands.
 */
public record TabViews(MapsView maps, SnippetView snippets) {

  @FunctionalInterface
  public interface MapsView {
    DomContent render(Lesson lesson);
  }

  @FunctionalInterface
  public interface SnippetView {
    /** @param snippetId a snippet id of the lesson, already checked to exist */
    DomContent render(Lesson lesson, String snippetId);

    /** Drawn at the end of the Sandbox tab: the lesson's fix-the-sink exercises, if it has any. */
    default DomContent exercises(Lesson lesson) {
      return j2html.TagCreator.text("");
    }
  }
}
