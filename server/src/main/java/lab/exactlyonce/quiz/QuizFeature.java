package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventKind;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Fact;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.store.Database;

import java.nio.file.Path;
import java.time.Clock;

/**
 * The quiz as the app wires it: builds the question bank, the sessions and the {@link Quiz}, registers its routes,
 * and hands the other features what they take from it: the {@code quiz.answer} event type, the live question bank
 * for the classroom, and the sessions for "export my data" and "forget me".
 */
public final class QuizFeature {
  private final Quiz quiz;
  private final QuizSessions sessions;
  private final QuizRoutes routes;

  /**
   * @param runner runs snippet variants for predict-the-output questions (the app passes its sandbox)
   * @param starters the fix-the-sink exercises' starters and their checks, for the verdict questions
   * @param dataDir what those runs produced is cached under {@code <dataDir>/quiz-outputs/}
   */
  public QuizFeature(LessonCatalog catalog, Path snippetsRoot, SourceRunner runner, StarterChecks starters, Path dataDir,
                     Database db, EventLog events, Learners learners, Clock clock) {
    RunCache runs = new RunCache(dataDir.resolve("quiz-outputs"));
    QuestionBank bank = new QuestionBank(catalog, snippetsRoot, new OutputQuestions(runner, runs),
        new VerdictQuestions(starters, runs));
    this.sessions = new QuizSessions(db);
    this.quiz = new Quiz(bank, events, sessions, clock);
    this.routes = new QuizRoutes(quiz, learners);
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
