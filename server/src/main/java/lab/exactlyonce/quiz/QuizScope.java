package lab.exactlyonce.quiz;

import java.util.List;

/**
 * What a quiz draws its questions from: one lesson, or every lesson at once ({@link #ALL}). A session keeps its
 * scope's id where it keeps a lesson id; {@code *} can never be one, since lesson ids are letters, digits, - and _.
 *
 * @param title what the quiz pages call it: the lesson's title, or "All lessons"
 * @param lessons the ids of the lessons it draws from, in the catalog's order
 */
record QuizScope(String id, String title, List<String> lessons) {
  static final String ALL = "*";

  QuizScope {
    lessons = List.copyOf(lessons);
  }

  boolean all() {
    return id.equals(ALL);
  }

  /** The quiz's entry page: {@code /quiz} for every lesson, {@code /lessons/<id>/quiz} for one. */
  String page() {
    return all() ? "/quiz" : "/lessons/" + id + "/quiz";
  }

  /** Where "back" leads: the home page, or the lesson. */
  String home() {
    return all() ? "/" : "/lessons/" + id;
  }
}
