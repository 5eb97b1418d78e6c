package lab.exactlyonce.classroom;

import io.javalin.http.Context;
import j2html.tags.DomContent;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.AssetVersion;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static j2html.TagCreator.div;
import static j2html.TagCreator.each;
import static j2html.TagCreator.script;

/**
 * Holds ladder answers back for the members of a class: the lesson and quiz views ask while they render. A learner in
 * several open classes on the lesson has the answers any of them holds held. The lesson page gets a watcher that
 * listens to the first holding class's stream, so answers appear as the instructor releases them.
 */
public final class HeldAnswers implements AnswerHolds {
  static final String NOTE = "Your instructor will release this answer.";

  private final ClassStore store;
  private final Learners learners;

  public HeldAnswers(Database db, Learners learners) {
    this(new ClassStore(db), learners);
  }

  HeldAnswers(ClassStore store, Learners learners) {
    this.store = store;
    this.learners = learners;
  }

  /** A visitor, or a cookie this server did not sign, is in no class: nothing is held (the page itself still works). */
  @Override
  public Held heldFor(Context asker, String lessonId) {
    Optional<String> learner;
    try {
      learner = learners.current(asker);
    } catch (RuntimeException tampered) {
      return Held.NOTHING;
    }
    return learner.map(id -> heldFor(id, lessonId)).orElse(Held.NOTHING);
  }

  @Override
  public Held heldFor(String learnerId, String lessonId) {
    Set<String> items = new TreeSet<>();
    String watched = null;
    for (Member m : store.memberships(learnerId)) {
      Optional<Room> room = store.find(m.classId());
      if (room.isEmpty() || room.get().closed() || !room.get().lesson().equals(lessonId)) continue;
      Set<String> holds = store.holds(m.classId());
      if (!holds.isEmpty() && watched == null) watched = m.classId();
      items.addAll(holds);
    }
    return items.isEmpty() ? Held.NOTHING : new Held(items, NOTE, watcher(watched, lessonId));
  }

  private static DomContent watcher(String classId, String lessonId) {
    return each(
        div().attr("hidden").attr("data-release-stream", "/api/classes/" + classId + "/stream")
            .attr("data-released-answers", "/api/lessons/" + lessonId + "/answers/"),
        script().withType("module").withSrc(AssetVersion.url("js/classroom-held.js")));
  }
}
