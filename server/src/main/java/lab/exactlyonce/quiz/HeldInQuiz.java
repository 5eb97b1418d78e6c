package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.lesson.Lesson;

import java.util.Map;

/**
 * The ladder answers held back from a learner in each lesson a quiz's questions come from: a quiz across lessons
 * holds each question's model answer as its own lesson's instructor holds it.
 */
record HeldInQuiz(Map<String, Lesson> lessons, Map<String, AnswerHolds.Held> held) {
  HeldInQuiz {
    lessons = Map.copyOf(lessons);
    held = Map.copyOf(held);
  }

  /** The held ladder question that holds {@code q}'s model answer back, or null. */
  String holding(Question q) {
    AnswerHolds.Held inLesson = held.get(q.lesson());
    return inLesson == null ? null : inLesson.holding(lessons.get(q.lesson()), q.item());
  }

  /** What a held model answer reads as. */
  String note(Question q) {
    AnswerHolds.Held inLesson = held.get(q.lesson());
    return inLesson == null ? "" : inLesson.note();
  }

  boolean isEmpty() {
    return held.values().stream().allMatch(AnswerHolds.Held::isEmpty);
  }
}
