package lab.exactlyonce.lesson;

import j2html.tags.DomContent;
import lab.exactlyonce.web.Markdown;
import lab.exactlyonce.web.Pages;

import java.util.List;
import java.util.function.Function;

import static j2html.TagCreator.*;

/**
 * The page at {@code /}: what the lab is for its three kinds of visitors (students, interview candidates,
 * instructors) and a way in for each: the lesson, its quiz, "Join a class" and "Teach a class". With one lesson that
 * lesson is the hero; with more they are listed as cards, each with its quiz. Under each lesson, the visitor's
 * reviews due in it ({@link DueReviews}): a learner who comes back sees first what is due. Plain links and forms: it
 * reads without scripts.
 */
final class HomePage {
  static final String JOIN = "/join";
  static final String TEACH = "/teach";
  /** The quiz across every lesson, with a link to each lesson's own. */
  static final String ALL_LESSONS_QUIZ = "/quiz";

  private HomePage() {}

  /** @param due the visitor's reviews due in a lesson, drawn (empty when none) */
  static String render(List<Lesson> lessons, Function<Lesson, DomContent> due) {
    return Pages.document("Exactly-Once Lab",
        header(h1("Exactly-Once Lab"),
            p("Learn how stream processors make each record count exactly once, even when they crash: read it, "
                + "see it on a map, run the code and test yourself."))
            .withClass("page-header"),
        lessons.size() == 1 ? hero(lessons.get(0), due) : list(lessons, due),
        audiences(lessons));
  }

  static String quiz(Lesson lesson) {
    return "/lessons/" + lesson.id() + "/quiz";
  }

  private static DomContent hero(Lesson lesson, Function<Lesson, DomContent> due) {
    return section(
        p("The lesson").withClass("hero-eyebrow"),
        h2(a(Markdown.inline(lesson.title())).withHref("/lessons/" + lesson.id())).withId("lesson-heading"),
        due.apply(lesson),
        div(Markdown.block(firstParagraph(lesson.summary()))).withClass("hero-summary"),
        p(a("Start the lesson").withHref("/lessons/" + lesson.id()).withClass("button-link primary"),
            a("Take the quiz").withHref(quiz(lesson)).withClass("button-link")).withClass("hero-actions")
    ).withClass("hero").attr("aria-labelledby", "lesson-heading");
  }

  private static DomContent list(List<Lesson> lessons, Function<Lesson, DomContent> due) {
    return section(
        h2("Lessons").withId("lessons-heading"),
        ul(each(lessons, l -> li(
            h3(a(Markdown.inline(l.title())).withHref("/lessons/" + l.id())),
            due.apply(l),
            div(Markdown.block(firstParagraph(l.summary()))).withClass("lesson-card-summary"),
            p(a("Take the quiz").withHref(quiz(l)))
        ).withClass("lesson-card"))).withClass("lesson-list")
    ).withId("lessons").attr("aria-labelledby", "lessons-heading");
  }

  private static DomContent audiences(List<Lesson> lessons) {
    String quiz = lessons.size() == 1 ? quiz(lessons.get(0)) : ALL_LESSONS_QUIZ;
    return section(
        h2("Who it is for").withId("audiences-heading"),
        ul(
            audience("Students", "Work through the gist, the maps, the question ladder and the runnable sink demos. "
                + "If your instructor runs a class, join it with the code they show and answer live questions "
                + "from your phone.", a("Join a class").withHref(JOIN)),
            audience("Interview candidates", "Practise with the quiz: an interview mode with a timer per question, "
                + "and spaced repetition that brings back what you got wrong.", a("Take the quiz").withHref(quiz)),
            audience("Instructors", "Run a live class: push questions to the room, watch answers and progress "
                + "arrive, and hold answers back until the class has tried.", a("Teach a class").withHref(TEACH))
        ).withClass("audience-list")
    ).attr("aria-labelledby", "audiences-heading");
  }

  private static DomContent audience(String who, String what, DomContent link) {
    return li(h3(who), p(what), p(link).withClass("audience-link")).withClass("audience");
  }

  /** A summary's opening paragraph: the home page introduces a lesson, the lesson page says the rest. */
  static String firstParagraph(String markdown) {
    String trimmed = markdown.strip();
    int end = trimmed.indexOf("\n\n");
    return end < 0 ? trimmed : trimmed.substring(0, end);
  }
}
