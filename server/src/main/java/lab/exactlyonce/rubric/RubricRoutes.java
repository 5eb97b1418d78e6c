package lab.exactlyonce.rubric;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.Context;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.web.ClientKeys;
import lab.exactlyonce.web.FairLimit;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;

import java.time.Clock;
import java.util.List;

/**
 * {@code POST /api/lessons/{id}/questions/{item}/score} with {@code {"answer": "..."}}: the key points of the
 * question's model answer that the typed answer makes and misses ({@link AnswerScore}). Scoring happens here and
 * not in the page so that the rubric, whose labels give the model answer away, never reaches a page before its
 * reader has answered, and an answer an instructor holds back stays held (409), as its model answer does. It stores
 * nothing: the candidate's self-rating, recorded as before, is what reviews the question. Scoring is limited per
 * learner and per network ({@link FairLimit}): 429 with {@code Retry-After} past either.
 */
public final class RubricRoutes {
  /** The answer's limit, with room for JSON escapes in the body's. */
  static final long MAX_BODY_BYTES = 8L * AnswerScorer.MAX_ANSWER_CHARS;
  /** Scored answers a minute per learner: one every two seconds is more than anyone types. */
  static final int PER_LEARNER_PER_MINUTE = 30;
  /** Scored answers a minute from one network: a lecture hall of a thousand behind one address, twice a minute each. */
  static final int PER_NETWORK_PER_MINUTE = 2_000;

  private final LessonCatalog lessons;
  private final RubricCatalog rubrics;
  private final AnswerHolds holds;
  private final FairLimit limit;

  public RubricRoutes(LessonCatalog lessons, RubricCatalog rubrics, AnswerHolds holds, ClientKeys clients, Clock clock) {
    this.lessons = lessons;
    this.rubrics = rubrics;
    this.holds = holds;
    this.limit = new FairLimit("scored answers", PER_LEARNER_PER_MINUTE, PER_NETWORK_PER_MINUTE, clients, clock);
  }

  public void register(RoutesConfig routes) {
    routes.post("/api/lessons/{id}/questions/{item}/score", this::score);
  }

  private void score(Context ctx) {
    Lesson lesson = lessons.require(ctx.pathParam("id"));
    String item = ctx.pathParam("item");
    if (!rubrics.questions(lesson.id()).contains(item)) {
      throw new NotFoundResponse("lesson '" + lesson.id() + "' has no key points for question '" + item + "'");
    }
    if (holds.heldFor(ctx, lesson.id()).holding(lesson, item) != null) {
      throw new ConflictResponse("the answer to question '" + item + "' is still held back by your instructor; its key "
          + "points are shown once it is released");
    }
    limit.take(ctx); // scoring costs CPU in proportion to the answer: a flood must not cost the others theirs
    JsonFields fields = JsonRequests.read(ctx, MAX_BODY_BYTES, List.of("answer"));
    String answer = fields.text("answer");
    if (answer.length() > AnswerScorer.MAX_ANSWER_CHARS) {
      throw new BadRequestResponse("'" + fields.path("answer") + "' must be at most " + AnswerScorer.MAX_ANSWER_CHARS
          + " characters, got " + answer.length());
    }
    ctx.header("Cache-Control", "no-store");
    ctx.json(rubrics.score(lesson.id(), item, answer).orElseThrow());
  }
}
