package lab.exactlyonce.quiz;

import io.javalin.config.RoutesConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.learner.Learners;
import lab.exactlyonce.lesson.AnswerHolds;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.web.JsonFields;
import lab.exactlyonce.web.JsonRequests;
import lab.exactlyonce.web.SameOriginGuard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * HTTP for the quiz. Pages: {@code GET /lessons/{id}/quiz} (entry: due count and start form; the form posts back
 * to the same path, and with {@code review=due} starts a review of exactly the questions due),
 * {@code GET /lessons/{id}/quiz/{session}} (the questions), {@code .../results} (the end screen), whose
 * "Review my misses" form posts to {@code .../misses}; the same pages under {@code /quiz} ask across every lesson
 * ({@link QuizScope#ALL}), its entry listing each lesson with its reviews due.
 * API: {@code POST /api/quiz/sessions} (a quiz, or with {@code review} a review of the due questions or of a
 * session's misses; {@code "lesson": "*"} for every lesson), {@code GET /api/quiz/sessions/{session}} and {@code .../results},
 * {@code GET /api/quiz/lessons/{id}} (the question bank without answers, topics and due count),
 * {@code GET /api/quiz/lessons/{id}/intervals} (when each rating of each ladder question brings it back, for the
 * lesson page's rating buttons). Answers are {@code quiz.answer} events through {@code POST /api/events}
 * ({@link QuizFeature#answerKind()}), graded once and stored with the event, so a retry gets the original verdict.
 */
final class QuizRoutes {
  private static final int MAX_START_BYTES = 2048;
  private static final List<String> START_FIELDS = List.of("lesson", "mode", "length", "topic", "seed", "seconds",
      "review", "session");
  /** The fields of a quiz start that choose its questions, which a review (of exactly the due or missed) leaves out. */
  private static final List<String> QUIZ_ONLY_FIELDS = List.of("mode", "length", "topic", "seed", "seconds");

  private final Quiz quiz;
  private final Reviews reviews;
  private final Learners learners;
  private final QuizPages pages;
  private final AnswerHolds holds;

  QuizRoutes(Quiz quiz, Reviews reviews, Learners learners, AnswerHolds holds, QuizPages pages) {
    this.quiz = quiz;
    this.reviews = reviews;
    this.pages = pages;
    this.learners = learners;
    this.holds = holds;
  }

  void register(RoutesConfig routes) {
    for (String quizPath : List.of("/lessons/{id}/quiz", "/quiz")) {
      routes.get(quizPath, this::entryPage);
      // The start form posts to a page path, outside the API's same-origin guard: it gets the same guard.
      routes.before(quizPath, SameOriginGuard::check);
      routes.post(quizPath, this::startFromForm);
      routes.get(quizPath + "/{session}", this::sessionPage);
      routes.get(quizPath + "/{session}/results", this::resultsPage);
      routes.before(quizPath + "/{session}/misses", SameOriginGuard::check);
      routes.post(quizPath + "/{session}/misses", this::reviewMissesFromForm);
    }
    routes.post("/api/quiz/sessions", this::startFromJson);
    routes.get("/api/quiz/sessions/{session}", ctx -> ctx.json(sessionJson(session(ctx))));
    routes.get("/api/quiz/sessions/{session}/results", this::resultsJson);
    routes.get("/api/quiz/lessons/{id}", this::bankJson);
    routes.get("/api/quiz/lessons/{id}/intervals", this::intervalsJson);
  }

  /** The scope a page path names: the lesson of {@code /lessons/{id}/quiz...}, every lesson for {@code /quiz...}. */
  private QuizScope scope(Context ctx) {
    return quiz.bank().scope(ctx.pathParamMap().getOrDefault("id", QuizScope.ALL));
  }

  private void entryPage(Context ctx) {
    QuizScope scope = scope(ctx);
    String learner = learners.current(ctx).orElse(null);
    boolean runsReady = quiz.bank().predictionsReady(scope.id()); // before the count: a count taken later holds those runs
    int total = quiz.bank().questions(scope.id()).size();
    Quiz.Standing standing = learner == null ? new Quiz.Standing(total, 0, 0) : quiz.standing(learner, scope.id());
    List<QuizPages.LessonLink> lessons = new ArrayList<>();
    for (Lesson lesson : quiz.bank().lessons()) {
      lessons.add(new QuizPages.LessonLink(lesson, learner == null ? Reviews.Due.NOTHING : reviews.due(learner, lesson.id())));
    }
    noStore(ctx);
    ctx.html(pages.entry(scope, standing, quiz.bank().lessonsOf(scope.id()),
        new QuizPages.BankSize(quiz.bank().fromText(scope.id()).size(), total, runsReady), lessons, quiz.now()));
  }

  private void startFromForm(Context ctx) {
    QuizScope scope = scope(ctx);
    String review = ctx.formParam("review");
    if (review != null) {
      reviewFromForm(ctx, scope, new Reviews.Start(scope.id(), review, null));
      return;
    }
    Integer seed = formInt(ctx, "seed"); // optional, as in the JSON start: the same seed draws the same questions
    Quiz.Start start = new Quiz.Start(scope.id(), ctx.formParam("mode"), formInt(ctx, "length"), ctx.formParam("topic"),
        seed == null ? null : seed.longValue(), null);
    QuizSession session = start(ctx, start);
    ctx.redirect(scope.page() + "/" + session.id(), HttpStatus.SEE_OTHER);
  }

  /** "Review my misses" on the results page. */
  private void reviewMissesFromForm(Context ctx) {
    QuizSession session = pageSession(ctx);
    reviewFromForm(ctx, quiz.bank().scope(session.lesson()), new Reviews.Start(session.lesson(), "misses", session.id()));
  }

  /**
   * A review started from a page's form. When there is nothing (left) to review, as when the page was open in
   * another tab while the learner reviewed, the learner lands on the quiz's entry page, which says what is due,
   * rather than on an error.
   */
  private void reviewFromForm(Context ctx, QuizScope scope, Reviews.Start start) {
    String learner = learner(ctx);
    QuizSession session;
    try {
      session = reviews.start(learner, start);
    } catch (ConflictResponse nothingToReview) {
      ctx.redirect(scope.page(), HttpStatus.SEE_OTHER);
      return;
    }
    ctx.redirect(scope.page() + "/" + session.id(), HttpStatus.SEE_OTHER);
  }

  private void startFromJson(Context ctx) {
    JsonFields body = JsonRequests.read(ctx, MAX_START_BYTES, START_FIELDS);
    if (body.has("review") || body.has("session")) {
      for (String field : QUIZ_ONLY_FIELDS) {
        if (body.has(field)) {
          throw new BadRequestResponse("'" + field + "' does not go with 'review': a review asks exactly the questions"
              + " due or missed");
        }
      }
      Reviews.Start review = new Reviews.Start(body.optionalText("lesson").orElse(null),
          body.optionalText("review").orElse(null), body.optionalText("session").orElse(null));
      ctx.status(201).json(sessionJson(reviews.start(learner(ctx), review)));
      return;
    }
    Quiz.Start start = new Quiz.Start(body.optionalText("lesson").orElse(null), body.optionalText("mode").orElse(null),
        body.optionalInteger("length").orElse(null), body.optionalText("topic").orElse(null),
        body.optionalLong("seed").orElse(null), body.optionalInteger("seconds").orElse(null));
    QuizSession session = start(ctx, start);
    ctx.status(201).json(sessionJson(session));
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
    Set<String> answered = new HashSet<>();
    for (Quiz.Line line : quiz.results(session.learner(), session.id()).lines()) {
      if (line.answered()) answered.add(line.question().id());
    }
    QuizScope scope = quiz.bank().scope(session.lesson());
    List<Question> questions = questions(session);
    Map<String, Fsrs.Card> cards = quiz.cards(session.learner(), scope.id());
    Map<String, List<String>> comesBack = new LinkedHashMap<>();
    for (Question q : questions) {
      if (q.selfGraded()) comesBack.put(q.id(), quiz.intervals(cards.get(q.id())).stream().map(Interval::label).toList());
    }
    ctx.html(pages.session(scope, session, questions, answered, comesBack, held(session.learner(), scope)));
  }

  private void resultsPage(Context ctx) {
    QuizSession session = pageSession(ctx);
    noStore(ctx);
    QuizScope scope = quiz.bank().scope(session.lesson());
    ctx.html(pages.results(scope, quiz.results(session.learner(), session.id()), held(session.learner(), scope)));
  }

  private void resultsJson(Context ctx) {
    Quiz.Results results = quiz.results(learner(ctx), ctx.pathParam("session"));
    HeldInQuiz held = held(results.session().learner(), quiz.bank().scope(results.session().lesson()));
    if (!held.isEmpty()) noStore(ctx);
    ctx.json(resultsJson(results, held));
  }

  /** What is held back from the learner in each lesson of the scope. */
  private HeldInQuiz held(String learner, QuizScope scope) {
    Map<String, Lesson> lessons = new HashMap<>();
    Map<String, AnswerHolds.Held> held = new HashMap<>();
    for (String id : scope.lessons()) {
      lessons.put(id, quiz.bank().lesson(id));
      held.put(id, holds.heldFor(learner, id));
    }
    return new HeldInQuiz(lessons, held);
  }

  private QuizSession pageSession(Context ctx) {
    QuizScope scope = scope(ctx);
    QuizSession session = session(ctx);
    if (!session.lesson().equals(scope.id())) {
      throw new NotFoundResponse("no quiz session '" + session.id() + "' in "
          + (scope.all() ? "the quiz across every lesson" : "lesson '" + scope.id() + "'"));
    }
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

  /**
   * When each rating of each ladder question brings it back, for this learner now: {@code {"lesson": ...,
   * "ratings": ["Again", ...], "rungs": {"L1": ["1 min", "2 min", "2 days", "8 days"], ...}}}. A visitor without a
   * learner cookie gets a new question's intervals.
   */
  private void intervalsJson(Context ctx) {
    Lesson lesson = quiz.bank().lesson(ctx.pathParam("id"));
    Map<String, List<String>> rungs = new LinkedHashMap<>();
    quiz.ladderIntervals(learners.current(ctx).orElse(null), lesson)
        .forEach((rung, intervals) -> rungs.put(rung, intervals.stream().map(Interval::label).toList()));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("lesson", lesson.id());
    body.put("ratings", QuizPages.RATINGS);
    body.put("rungs", rungs);
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
    body.put("page", quiz.bank().scope(s.lesson()).page() + "/" + s.id());
    body.put("questions", questions(s).stream().map(QuizRoutes::publicView).toList());
    return body;
  }

  /** The results; a held model answer (expected and explanation) reads as the hold's note. */
  static Map<String, Object> resultsJson(Quiz.Results r, HeldInQuiz held) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("session", r.session().id());
    body.put("lesson", r.session().lesson());
    body.put("mode", r.session().mode().id);
    // The score is correct of graded; self-rated answers are listed apart and never counted right.
    body.put("correct", r.correct());
    body.put("graded", r.graded());
    body.put("answered", r.answered());
    body.put("total", r.lines().size());
    body.put("topics", r.topics().stream().map(t -> Map.of("topic", t.topic(), "correct", t.correct(), "total", t.total())).toList());
    List<Map<String, Object>> selfRated = new ArrayList<>();
    for (Quiz.Line line : r.selfRated()) {
      Map<String, Object> rated = new LinkedHashMap<>();
      rated.put("question", line.question().id());
      rated.put("prompt", line.question().prompt());
      rated.put("rating", QuizPages.selfRating(line));
      selfRated.add(rated);
    }
    body.put("selfRated", selfRated);
    List<Map<String, Object>> misses = new ArrayList<>();
    for (Quiz.Line line : r.misses()) {
      Map<String, Object> miss = new LinkedHashMap<>();
      miss.put("question", line.question().id());
      miss.put("topic", line.question().topic());
      miss.put("prompt", line.question().prompt());
      miss.put("detail", line.question().detail());
      miss.put("given", QuizPages.given(line));
      boolean isHeld = held.holding(line.question()) != null;
      miss.put("expected", isHeld ? held.note(line.question()) : line.question().expected());
      miss.put("explanation", isHeld ? held.note(line.question()) : line.question().explanation());
      miss.put("link", line.question().link());
      misses.add(miss);
    }
    body.put("misses", misses);
    return body;
  }

  private static void noStore(Context ctx) {
    ctx.header("Cache-Control", "no-store");
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
