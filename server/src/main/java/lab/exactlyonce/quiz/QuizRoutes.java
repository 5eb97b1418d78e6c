package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import lab.exactlyonce.learner.LearnerData;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventKind;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Fact;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.store.Database;
import lab.exactlyonce.web.JsonRequests;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lab.exactlyonce.web.SameOriginGuard;

/**
 * HTTP for the quiz. Pages: {@code GET /lessons/{id}/quiz} (entry: due count and start form; the form posts back
 * to the same path), {@code GET /lessons/{id}/quiz/{session}} (the questions), {@code .../results} (the end screen).
 * API: {@code POST /api/quiz/sessions}, {@code GET /api/quiz/sessions/{session}} and {@code .../results},
 * {@code GET /api/quiz/lessons/{id}} (the question bank without answers, topics and due count). Answers are
 * {@code quiz.answer} events through {@code POST /api/events} ({@link #answerKind()}), graded once and stored with
 * the event, so a retry gets the original verdict.
 */
public final class QuizRoutes {
  private static final int MAX_START_BYTES = 2048;
  private static final Set<String> START_FIELDS = Set.of("lesson", "mode", "length", "topic", "seed", "seconds");

  private final Quiz quiz;
  private final QuizSessions sessions;
  private final Learners learners;
  private final QuizPages pages = new QuizPages();

  /**
   * @param sandbox runs snippet variants for predict-the-output questions
   * @param starters the fix-the-sink exercises' starters and their checks, for the verdict questions
   * @param dataDir what those runs produced is cached under {@code <dataDir>/quiz-outputs/}
   */
  public QuizRoutes(LessonCatalog catalog, Path snippetsRoot, CodeRunner sandbox, StarterChecks starters, Path dataDir,
                    Database db, EventLog events, Learners learners, Clock clock) {
    RunCache runs = new RunCache(dataDir.resolve("quiz-outputs"));
    QuestionBank bank = new QuestionBank(catalog, snippetsRoot, new OutputQuestions(sandbox, runs),
        new VerdictQuestions(starters, runs));
    this.sessions = new QuizSessions(db);
    this.quiz = new Quiz(bank, events, sessions, clock);
    this.learners = learners;
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

  public void register(RoutesConfig routes) {
    routes.get("/lessons/{id}/quiz", this::entryPage);
    routes.post("/lessons/{id}/quiz", this::startFromForm);
    routes.get("/lessons/{id}/quiz/{session}", this::sessionPage);
    routes.get("/lessons/{id}/quiz/{session}/results", this::resultsPage);
    routes.post("/api/quiz/sessions", this::startFromJson);
    routes.get("/api/quiz/sessions/{session}", ctx -> ctx.json(sessionJson(session(ctx))));
    routes.get("/api/quiz/sessions/{session}/results", ctx -> ctx.json(resultsJson(quiz.results(learner(ctx), ctx.pathParam("session")))));
    routes.get("/api/quiz/lessons/{id}", this::bankJson);
  }

  private void entryPage(Context ctx) {
    Lesson lesson = quiz.bank().lesson(ctx.pathParam("id"));
    String learner = learners.current(ctx).orElse(null);
    int due = learner == null ? 0 : quiz.dueToday(learner, lesson.id());
    noStore(ctx);
    ctx.html(pages.entry(lesson, due, quiz.bank().topics(lesson.id()), quiz.bank().questions(lesson.id()).size()));
  }

  private void startFromForm(Context ctx) {
    refuseCrossSite(ctx);
    Lesson lesson = quiz.bank().lesson(ctx.pathParam("id"));
    Quiz.Start start = new Quiz.Start(lesson.id(), ctx.formParam("mode"), formInt(ctx, "length"), ctx.formParam("topic"),
        null, null);
    QuizSession session = start(ctx, start);
    ctx.redirect("/lessons/" + lesson.id() + "/quiz/" + session.id(), HttpStatus.SEE_OTHER);
  }

  private void startFromJson(Context ctx) {
    ObjectNode body = JsonRequests.object(ctx, MAX_START_BYTES);
    List<String> unknown = new ArrayList<>();
    body.fieldNames().forEachRemaining(f -> { if (!START_FIELDS.contains(f)) unknown.add(f); });
    if (!unknown.isEmpty()) {
      throw new BadRequestResponse("unknown field '" + unknown.get(0) + "'; a quiz starts with lesson, mode, length, topic, seed and seconds");
    }
    Quiz.Start start = new Quiz.Start(text(body, "lesson"), text(body, "mode"), integer(body, "length"), text(body, "topic"),
        body.hasNonNull("seed") ? longValue(body, "seed") : null, integer(body, "seconds"));
    QuizSession session = start(ctx, start);
    ctx.status(201).json(sessionJson(session));
  }

  /** The start form posts to a page path, outside the API's same-origin guard: it follows the same rule. */
  private static void refuseCrossSite(Context ctx) {
    SameOriginGuard.check(ctx);
  }

  /** Validates first, then creates the learner if needed, so bad input stores nothing. */
  private QuizSession start(Context ctx, Quiz.Start start) {
    learners.current(ctx);
    quiz.check(start);
    return quiz.start(learners.currentOrCreate(ctx), start);
  }

  private void sessionPage(Context ctx) {
    QuizSession session = pageSession(ctx);
    noStore(ctx);
    java.util.Set<String> answered = new java.util.HashSet<>();
    for (Quiz.Line line : quiz.results(session.learner(), session.id()).lines()) {
      if (line.answered()) answered.add(line.question().id());
    }
    ctx.html(pages.session(quiz.bank().lesson(session.lesson()), session, questions(session), answered));
  }

  private void resultsPage(Context ctx) {
    QuizSession session = pageSession(ctx);
    noStore(ctx);
    ctx.html(pages.results(quiz.bank().lesson(session.lesson()), quiz.results(session.learner(), session.id())));
  }

  private QuizSession pageSession(Context ctx) {
    Lesson lesson = quiz.bank().lesson(ctx.pathParam("id"));
    QuizSession session = session(ctx);
    if (!session.lesson().equals(lesson.id())) throw new io.javalin.http.NotFoundResponse("no quiz session '" + session.id() + "' in lesson '" + lesson.id() + "'");
    return session;
  }

  private QuizSession session(Context ctx) {
    return quiz.session(learner(ctx), ctx.pathParam("session"));
  }

  /** The learner in the cookie; someone without one has no sessions, so every session id is unknown to them. */
  private String learner(Context ctx) {
    return learners.current(ctx).orElse("");
  }

  private List<Question> questions(QuizSession session) {
    List<Question> out = new ArrayList<>();
    for (String id : session.questions()) quiz.bank().find(id).ifPresent(out::add); // see Quiz.results
    return out;
  }

  private void bankJson(Context ctx) {
    Lesson lesson = quiz.bank().lesson(ctx.pathParam("id"));
    String learner = learners.current(ctx).orElse(null);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("lesson", lesson.id());
    body.put("dueToday", learner == null ? 0 : quiz.dueToday(learner, lesson.id()));
    body.put("predictionsReady", quiz.bank().predictions(lesson).isDone());
    body.put("topics", quiz.bank().topics(lesson.id()));
    body.put("questions", quiz.bank().questions(lesson.id()).stream().map(QuizRoutes::publicView).toList());
    noStore(ctx);
    ctx.json(body);
  }

  /** A question as the learner sees it before answering: no answer, no explanation. */
  static Map<String, Object> publicView(Question q) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("id", q.id());
    view.put("item", q.item());
    view.put("kind", q.kind().label);
    view.put("topic", q.topic());
    view.put("prompt", q.prompt());
    view.put("detail", q.detail());
    view.put("options", q.options());
    return view;
  }

  private Map<String, Object> sessionJson(QuizSession s) {
    Map<String, Object> body = s.fields();
    body.put("page", "/lessons/" + s.lesson() + "/quiz/" + s.id());
    body.put("questions", questions(s).stream().map(QuizRoutes::publicView).toList());
    return body;
  }

  static Map<String, Object> resultsJson(Quiz.Results r) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("session", r.session().id());
    body.put("lesson", r.session().lesson());
    body.put("mode", r.session().mode().id);
    body.put("correct", r.correct());
    body.put("answered", r.answered());
    body.put("total", r.lines().size());
    body.put("topics", r.topics().stream().map(t -> Map.of("topic", t.topic(), "correct", t.correct(), "total", t.total())).toList());
    List<Map<String, Object>> misses = new ArrayList<>();
    for (Quiz.Line line : r.misses()) {
      Map<String, Object> miss = new LinkedHashMap<>();
      miss.put("question", line.question().id());
      miss.put("topic", line.question().topic());
      miss.put("prompt", line.question().prompt());
      miss.put("detail", line.question().detail());
      miss.put("given", QuizPages.given(line));
      miss.put("expected", line.question().expected());
      miss.put("explanation", line.question().explanation());
      miss.put("link", line.question().link());
      misses.add(miss);
    }
    body.put("misses", misses);
    return body;
  }

  private static void noStore(Context ctx) {
    ctx.header("Cache-Control", "no-store");
  }

  private static String text(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isTextual()) throw new BadRequestResponse("'" + field + "' must be a string, got " + v);
    return v.asText();
  }

  private static Integer integer(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) return null;
    if (!v.isIntegralNumber() || !v.canConvertToInt()) throw new BadRequestResponse("'" + field + "' must be a whole number, got " + v);
    return v.intValue();
  }

  private static Long longValue(ObjectNode body, String field) {
    JsonNode v = body.get(field);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) throw new BadRequestResponse("'" + field + "' must be a whole number, got " + v);
    return v.longValue();
  }

  private static Integer formInt(Context ctx, String field) {
    String v = Optional.ofNullable(ctx.formParam(field)).map(String::strip).orElse("");
    if (v.isEmpty()) return null;
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new BadRequestResponse("'" + field + "' must be a whole number, got '" + (v.length() > 20 ? v.substring(0, 20) + "..." : v) + "'");
    }
  }
}
