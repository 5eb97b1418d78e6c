package lab.exactlyonce.lesson;

import j2html.tags.DomContent;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What other features draw inside a lesson page. The lesson feature owns the page; the maps view draws a lesson's
 * diagrams and flows on the Maps tab; the snippet view draws a runnable snippet wherever a {@code snippet} block
 * stands; the exercises view draws the lesson's fix-the-sink exercises at the end of the Sandbox tab; the page data
 * are names other features' scripts share with the server, put on the lesson element.
 */
public record TabViews(MapsView maps, SnippetView snippets, ExercisesView exercises,
                       PageData page) {

  @FunctionalInterface
  public interface MapsView {
    DomContent render(Lesson lesson);
  }

  @FunctionalInterface
  public interface SnippetView {
    /** @param snippetId a snippet id of the lesson, already checked to exist */
    DomContent render(Lesson lesson, String snippetId);
  }

  /** Drawn at the end of the Sandbox tab: the lesson's fix-the-sink exercises; nothing for a lesson without any. */
  @FunctionalInterface
  public interface ExercisesView {
    DomContent render(Lesson lesson);
  }

  /** {@code data-*} attributes (name to value) on the lesson element, read by the scripts of other features. */
  @FunctionalInterface
  public interface PageData {
    Map<String, String> attributes(Lesson lesson);

    /** This feature's attributes and then {@code other}'s. */
    default PageData and(PageData other) {
      return lesson -> {
        Map<String, String> both = new LinkedHashMap<>(attributes(lesson));
        both.putAll(other.attributes(lesson));
        return both;
      };
    }
  }
}
