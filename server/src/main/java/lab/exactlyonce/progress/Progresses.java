package lab.exactlyonce.progress;

import lab.exactlyonce.lesson.Lesson;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The progress feature's service: a learner's {@link Progress} in a lesson, derived from their events there. Each
 * lesson's items (what progress can point at) are worked out once and kept. The routes and the classroom dashboard
 * both derive through here.
 */
public final class Progresses {
  private final EventLog log;
  private final Function<String, List<String>> exercisesOf;
  private final Map<String, LessonItems> itemsByLesson = new ConcurrentHashMap<>();

  /** @param exercisesOf a lesson id's fix-the-sink exercise ids, whose checks count on the Sandbox tab */
  public Progresses(EventLog log, Function<String, List<String>> exercisesOf) {
    this.log = log;
    this.exercisesOf = exercisesOf;
  }

  /** A learner's progress in a lesson derived from their events there, oldest first (the classroom dashboard). */
  public Progress derive(Lesson lesson, List<RecordedEvent> events) {
    return Progress.derive(lesson.id(), items(lesson), events);
  }

  /** The learner's progress in the lesson; someone without a learner id has none yet. */
  Progress of(Optional<String> learner, Lesson lesson) {
    return derive(lesson, learner.map(l -> log.inLesson(l, lesson.id())).orElse(List.of()));
  }

  LessonItems items(Lesson lesson) {
    return itemsByLesson.computeIfAbsent(lesson.id(), id -> LessonItems.of(lesson, exercisesOf.apply(id)));
  }
}
