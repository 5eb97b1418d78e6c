package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.lesson.DueReviews;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventKind;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Fact;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.snippet.Snippet;
import lab.exactlyonce.snippet.SnippetCatalog;
import lab.exactlyonce.store.Database;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

import static j2html.TagCreator.text;

/**
 * The quiz as the app wires it: builds the question bank, the sessions and the {@link Quiz}, registers its routes,
 * and hands the other features what they take from it: the {@code quiz.answer} event type, the live question bank
 * for the classroom, and the sessions for "export my data" and "forget me".
 */
public final class QuizFeature {
  private final Quiz quiz;
  private final Reviews reviews;
  private final QuizSessions sessions;
  private final QuizRoutes routes;
  private final AnswerHolds holds;
  private final Learners learners;
  private final Clock clock;

  /**
   * @param lessonsRoot where each lesson's written question bank is read from ({@code <id>/questions.yaml})
   * @param snippets the snippets' knobs, whose ranges bound the predict-the-output variants
   * @param sandbox runs snippet variants for predict-the-output questions
   * @param starters the fix-the-sink exercises' starters and their checks, for the verdict questions
   * @param dataDir what those runs produced is cached under {@code <dataDir>/quiz-outputs/}
   * @param holds the ladder answers held back from a learner: their model answers are held in the quiz too
   */
  public QuizFeature(LessonCatalog catalog, Path lessonsRoot, SnippetCatalog snippets, Path snippetsRoot, CodeRunner sandbox,
                     StarterChecks starters, Path dataDir, Database db, EventLog events, Learners learners,
                     AnswerHolds holds, KeyPoints keyPoints, Clock clock) {
    RunCache runs = new RunCache(dataDir.resolve("quiz-outputs"));
    QuestionBank bank = new QuestionBank(catalog, lessonsRoot, snippetsRoot,
        id -> snippets.find(id).map(Snippet::knobs).orElse(List.of()), new OutputQuestions(sandbox, runs),
        new VerdictQuestions(starters, runs));
    this.sessions = new QuizSessions(db);
    this.quiz = new Quiz(bank, events, sessions, clock);
    this.reviews = new Reviews(quiz, sessions, clock);
    this.holds = holds;
    this.learners = learners;
    this.clock = clock;
    this.routes = new QuizRoutes(quiz, reviews, learners, holds, new QuizPages(keyPoints));
  }

  public void register(RoutesConfig config) {
    routes.register(config);
  }

  /** The {@code quiz.answer} event type for {@code POST /api/events}. */
  public EventKind answerKind() {
    return new EventKind() {
      @Override
      public String type() {
        return Quiz.ANSWER;
      }

      @Override
      public void validate(Lesson lesson, String item, ObjectNode data) {
        quiz.parse(lesson, item, data);
      }

      @Override
      public Fact fact(String learnerId, NewEvent event) {
        return Fact.quizAnswer(learnerId, event.data().path("session").asText(), event.data().path("question").asText());
      }

      @Override
      public JsonNode result(String learnerId, Lesson lesson, NewEvent event) {
        return quiz.grade(learnerId, lesson, event);
      }

      /** The stored grading keeps the model answer; the response leaves it out while it is held. */
      @Override
      public RecordedEvent shown(String learnerId, Lesson lesson, RecordedEvent event) {
        AnswerHolds.Held held = holds.heldFor(learnerId, lesson.id());
        if (held.holding(lesson, event.item()) == null || !event.result().has("explanation")) return event;
        ObjectNode result = event.result().deepCopy();
        result.put("expected", held.note());
        result.put("explanation", held.note());
        return new RecordedEvent(event.id(), event.type(), event.lesson(), event.item(), event.data(), result,
            event.recordedAt(), event.seq());
      }
    };
  }

  /** The asker's reviews due in a lesson, for the home and lesson pages (see {@link QuizPages#dueNotice}). */
  public DueReviews dueReviews() {
    return (asker, lesson) -> {
      Optional<String> learner;
      try {
        learner = learners.current(asker);
      } catch (BadRequestResponse tampered) {
        return text(""); // the page still shows; the quiz's own pages say what is wrong with the cookie
      }
      return learner.map(id -> QuizPages.dueNotice(lesson, reviews.due(id, lesson.id()), clock.instant())).orElse(text(""));
    };
  }

  /** The questions the classroom can push live, with their answers. */
  public LiveBank liveBank() {
    return new LiveBank(quiz.bank());
  }

  /** Quiz sessions, for "export my data" and "forget me". */
  public LearnerData learnerData() {
    return sessions;
  }
}
