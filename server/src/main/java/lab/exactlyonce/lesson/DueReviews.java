package lab.exactlyonce.lesson;

import io.javalin.http.Context;
import j2html.tags.DomContent;

import static j2html.TagCreator.text;

/**
 * What the asker has due for review in a lesson, as another feature (the quiz, which schedules the reviews) draws
 * it: "7 questions due for review" with a way to review exactly those, when the next review is, or nothing. The home
 * page shows it under each lesson and the lesson page in its header, so a learner who comes back sees what is due
 * without opening the quiz first. This feature only places it.
 */
public interface DueReviews {
  /** Nothing due for anyone: for an app without a quiz. */
  DueReviews NONE = (asker, lesson) -> text("");

  /** The asker's reviews due in {@code lesson}; empty for a visitor, or a learner who has never been asked anything. */
  DomContent notice(Context asker, Lesson lesson);
}
