package lab.exactlyonce.exercise;

import j2html.tags.DomContent;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.TabViews;
import lab.exactlyonce.web.Markdown;

import java.util.List;

import static j2html.TagCreator.*;

/**
 * Draws a lesson's fix-the-sink exercises at the end of its Sandbox tab: each one's title, task, instructions (prose
 * above the editor) and starter code, readable without JavaScript, and its Check toolbar and result panels, hidden. {@code web/js/exercises.js} turns
 * each starter into an editor, shows the toolbar and fills the panels with the verdicts; {@code web/js/progress-view.js}
 * puts a checkmark on each exercise the server saw pass.
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
        h3("Fix it").withId("sandbox-exercises-heading"),
        p("Complete the class in each exercise, then Check runs it under many crash points and names what went wrong."),
        p("Checking an exercise needs JavaScript; the tasks and starter code read without it.")
            .withClass("fix-exercises-needs-js"),
        each(mine, ExerciseViews::exercise)
    ).withId("sandbox/exercises").withClass("fix-exercises").attr("data-exercises")
        .attr("aria-labelledby", "sandbox-exercises-heading");
  }

  /**
   * The toolbar, status line and result panels are rendered {@code hidden}: {@code web/js/exercises.js} shows the
   * toolbar and the status line, and each panel once a check has something to show in it.
   */
  private static DomContent exercise(Exercise e) {
    String id = "sandbox/exercise/" + e.id();
    return article(
        h4(span(e.title()).withClass("fix-exercise-name")).withClass("fix-exercise-title").withId(id + "/title"),
        p(e.description()).withClass("fix-exercise-description"),
        div(Markdown.block(e.instructions())).withClass("fix-exercise-instructions").attr("data-instructions", ""),
        pre(code(e.source()).withClass("language-java")).withClass("sandbox-source").attr("data-source", "")
            .attr("tabindex", "0").attr("aria-label", "Java source of the exercise " + e.title()),
        div(
            button("Check").withType("button").withClass("sandbox-run").attr("data-check", e.id())
                .attr("aria-keyshortcuts", "Control+Enter Meta+Enter"),
            button("Reset to starter").withType("button").attr("data-reset", e.id()),
            button("Reference solution").withType("button").attr("data-solution", e.id()).attr("hidden", "")
        ).withClass("sandbox-toolbar fix-exercise-toolbar").attr("role", "toolbar").attr("aria-label", "Exercise " + e.title())
            .attr("hidden", ""),
        p("Not checked yet.").withClass("sandbox-status fix-exercise-status").attr("role", "status").attr("data-status", "")
            .attr("hidden", ""),
        ul().withClass("sandbox-diagnostics").attr("aria-label", "Diagnostics").attr("data-diagnostics", "").attr("hidden", ""),
        // A failed check leads with its digest (first failure, reasons, a hint); the full list stays a click away.
        div().withClass("fix-exercise-digest").attr("data-digest", "").attr("hidden", ""),
        details(
            summary("All scenarios").attr("data-all-summary", ""),
            ol().withClass("fix-exercise-scenarios").attr("aria-label", "Scenarios").attr("data-scenarios", "")
        ).withClass("fix-exercise-all").attr("data-all-scenarios", "").attr("hidden", ""),
        details(
            summary("Program output"),
            pre().attr("data-stdout", ""),
            pre().attr("data-stderr", "")
        ).withClass("fix-exercise-output").attr("hidden", ""),
        details(
            summary("Reference solution"),
            p("One way to pass every scenario; yours may differ and still pass. Your code in the editor stays as it is."),
            pre().attr("data-solution-source", "")
        ).withClass("fix-exercise-solution").attr("hidden", "")
    ).withClass("sandbox fix-exercise").withId(id).attr("data-exercise", e.id()).attr("data-state", "idle")
        .attr("aria-labelledby", id + "/title");
  }
}
