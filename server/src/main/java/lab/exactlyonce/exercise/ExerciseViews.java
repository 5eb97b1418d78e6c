package lab.exactlyonce.exercise;

import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.TabViews;

import java.util.List;

import static j2html.TagCreator.*;

/**
 * Draws a lesson's fix-the-sink exercises at the end of its Sandbox tab: each one's title, task and starter code,
 * readable without JavaScript. {@code web/js/exercises.js} turns each starter into an editor with Check and Reset,
 * and shows the verdicts; {@code web/js/progress.js} puts a checkmark on each exercise the server saw pass.
 */
public final class ExerciseViews implements TabViews.ExercisesView {
  private final ExerciseCatalog catalog;

  public ExerciseViews(ExerciseCatalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public DomContent render(Lesson lesson) {
    List<Exercise> mine = catalog.all().stream().filter(e -> e.lesson().equals(lesson.id())).toList();
    if (mine.isEmpty()) return text("");
    return section(
        h3("Fix the sink").withId("sandbox-exercises-heading"),
        p("Complete the class in each exercise, then Check runs it under many crash points and names what went wrong."),
        p("Checking an exercise needs JavaScript; the tasks and starter code read without it.")
            .withClass("fix-exercises-needs-js"),
        each(mine, ExerciseViews::exercise)
    ).withId("sandbox/exercises").withClass("fix-exercises").attr("data-exercises")
        .attr("aria-labelledby", "sandbox-exercises-heading");
  }

  private static DomContent exercise(Exercise e) {
    String id = "sandbox/exercise/" + e.id();
    return article(
        h4(span(e.title()).withClass("fix-exercise-name")).withClass("fix-exercise-title").withId(id + "/title"),
        p(e.description()).withClass("fix-exercise-description"),
        pre(code(e.source()).withClass("language-java")).withClass("sandbox-source").attr("data-source", "")
            .attr("tabindex", "0").attr("aria-label", "Java source of the exercise " + e.title())
    ).withClass("sandbox fix-exercise").withId(id).attr("data-exercise", e.id()).attr("data-state", "idle")
        .attr("aria-labelledby", id + "/title");
  }
}
