package lab.exactlyonce.lesson;

import io.javalin.http.Context;
import j2html.tags.DomContent;

import java.util.Set;

import static j2html.TagCreator.text;

/**
 * Which ladder answers another feature holds back from the asker (the classroom: an instructor holds them for the
 * members of a class until they release them). The lesson page, the lesson JSON and the quiz ask while they render,
 * and draw a held answer as held: its place stays, marked {@code data-held="<ladder id>"}, with {@link Held#note()}
 * instead of the answer. A question that rephrases a held ladder question is held with it.
 */
public interface AnswerHolds {
  /** For a request: held for whoever its learner cookie names; nothing for a visitor. */
  Held heldFor(Context asker, String lessonId);

  /** For a learner known by id. */
  Held heldFor(String learnerId, String lessonId);

  /**
   * @param ladder the ids of the held ladder questions
   * @param note what the learner reads in place of a held answer
   * @param watcher drawn at the end of a lesson page that holds answers: it fetches each answer as it is released
   *     (from {@code GET /api/lessons/{id}/answers/{item}}) and puts it in place of the note
   */
  record Held(Set<String> ladder, String note, DomContent watcher) {
    public static final Held NOTHING = new Held(Set.of(), "", text(""));

    public Held {
      ladder = Set.copyOf(ladder);
    }

    public boolean isEmpty() {
      return ladder.isEmpty();
    }

    /**
     * The held ladder question that holds back the answer of a lesson item: the item itself, or the ladder question
     * it rephrases; null when its answer is not held.
     */
    public String holding(Lesson lesson, String itemId) {
      if (ladder.isEmpty()) return null;
      if (ladder.contains(itemId)) return itemId;
      String rephrased = lesson.question(itemId).map(Block.Question::rephrases).orElse(null);
      return rephrased != null && ladder.contains(rephrased) ? rephrased : null;
    }
  }
}
