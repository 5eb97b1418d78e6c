package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.progress.Progress;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.web.JsonFields;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The quiz, without routes or pages: starts sessions (due questions first, then new ones, in an order fixed by a seed),
 * grades and records answers exactly once, derives schedules and results from the recorded answers. Bad input is
 * a Javalin 4xx naming the culprit, as {@code web/package-info} allows services.
 */
final class Quiz {
  static final int MAX_LENGTH = 50;
  static final int DEFAULT_LENGTH = 10;
  static final int DEFAULT_SECONDS = 60;

  private final QuestionBank bank;
  static final String ANSWER = "quiz.answer";
  static final String SELF_RATING = "self.rating";
  /** A check of a fix-the-sink exercise (item: the exercise), recorded by the exercise feature. */
  static final String EXERCISE_CHECK = Progress.EXERCISE_CHECK;

  private final EventLog events;
  private final QuizSessions sessions;
  private final Grader grader = new Grader();
  private final Fsrs fsrs = Fsrs.forQuiz();
  private final Clock clock;

  Quiz(QuestionBank bank, EventLog events, QuizSessions sessions, Clock clock) {
    this.bank = bank;
    this.events = events;
    this.sessions = sessions;
    this.clock = clock;
  }

  QuestionBank bank() {
    return bank;
  }

  /**
   * What a learner asks for when starting a quiz; null fields take defaults.
   *
   * @param lesson a lesson id, or {@link QuizScope#ALL} for a quiz across every lesson
   */
  record Start(String lesson, String mode, Integer length, String topic, Long seed, Integer seconds) {}

  /** A checked {@link Start}, defaults filled in. */
  record Plan(String lesson, QuizSession.Mode mode, int length, String topic, long seed, int seconds) {}

  /** Checks a start request; every problem is a 4xx naming the field. */
  Plan check(Start start) {
    if (start.lesson() == null || start.lesson().isBlank()) throw new BadRequestResponse("'lesson' is required");
    String lesson = bank.scope(start.lesson()).id();
    QuizSession.Mode mode = start.mode() == null ? QuizSession.Mode.PRACTICE : QuizSession.Mode.parse(start.mode());
    if (mode == null) throw new BadRequestResponse("'mode' must be practice or interview, got '" + start.mode() + "'");
    int length = start.length() == null ? DEFAULT_LENGTH : start.length();
    if (length < 1 || length > MAX_LENGTH) {
      throw new BadRequestResponse("'length' must be between 1 and " + MAX_LENGTH + ", got " + length);
    }
    int seconds = start.seconds() == null ? DEFAULT_SECONDS : start.seconds();
    if (seconds < 5 || seconds > 600) throw new BadRequestResponse("'seconds' must be between 5 and 600, got " + seconds);
    String topic = start.topic() == null || start.topic().isBlank() ? null : start.topic();
    if (topic != null && !bank.topics(lesson).contains(topic)) {
      throw new BadRequestResponse((lesson.equals(QuizScope.ALL) ? "no lesson has" : "lesson '" + lesson + "' has no")
          + " topic '" + topic + "'; topics: " + String.join(", ", bank.topics(lesson)));
    }
    long seed = start.seed() != null ? start.seed() : new Random().nextLong();
    return new Plan(lesson, mode, length, topic, seed, seconds);
  }

  QuizSession start(String learner, Start start) {
    Plan plan = check(start);
    List<Question> pool = bank.questions(plan.lesson());
    if (plan.topic() != null) pool = pool.stream().filter(q -> q.topic().equals(plan.topic())).toList();
    List<String> chosen = choose(pool, cards(learner, plan.lesson()), plan.length(), plan.seed(), bank::idea);
    QuizSession session = new QuizSession(UUID.randomUUID().toString(), learner, plan.lesson(), plan.mode(), plan.seed(),
        chosen, plan.mode() == QuizSession.Mode.INTERVIEW ? plan.seconds() : 0, clock.instant());
    sessions.add(session);
    return session;
  }

  /** {@link #choose(List, Map, int, long, Function)} with each item an idea of its own. */
  List<String> choose(List<Question> pool, Map<String, Fsrs.Card> cards, int length, long seed) {
    return choose(pool, cards, length, seed, q -> q.idea(item -> item));
  }

  /**
   * Due (by end of today, earliest first), then new (shuffled by the seed), then the rest (soonest due first), with
   * one question per idea: a second question about the same idea would be answered by the first.
   */
  List<String> choose(List<Question> pool, Map<String, Fsrs.Card> cards, int length, long seed, Function<Question, String> idea) {
    Instant endOfToday = endOfToday();
    List<Question> due = new ArrayList<>();
    List<Question> fresh = new ArrayList<>();
    List<Question> later = new ArrayList<>();
    for (Question q : pool) {
      Fsrs.Card card = cards.get(q.id());
      if (card == null) fresh.add(q);
      else if (!card.due().isAfter(endOfToday)) due.add(q);
      else later.add(q);
    }
    Comparator<Question> byDue = Comparator.<Question, Instant>comparing(q -> cards.get(q.id()).due()).thenComparing(Question::id);
    due.sort(byDue);
    later.sort(byDue);
    fresh.sort(Comparator.comparing(Question::id));
    Collections.shuffle(fresh, new Random(seed));
    List<String> chosen = new ArrayList<>();
    Set<String> ideas = new HashSet<>();
    for (List<Question> group : List.of(due, takingTurns(fresh), later)) {
      for (Question q : group) if (chosen.size() < length && ideas.add(idea.apply(q))) chosen.add(q.id());
    }
    return chosen;
  }

  /**
   * The questions with their lessons taking turns, each lesson's in the order given: a quiz across lessons asks about
   * each of them, however few questions one lesson has beside another. One lesson's questions stay as they are.
   */
  private static List<Question> takingTurns(List<Question> questions) {
    Map<String, List<Question>> byLesson = new LinkedHashMap<>();
    for (Question q : questions) byLesson.computeIfAbsent(q.lesson(), l -> new ArrayList<>()).add(q);
    List<Question> out = new ArrayList<>();
    for (int turn = 0; out.size() < questions.size(); turn++) {
      for (List<Question> lesson : byLesson.values()) if (turn < lesson.size()) out.add(lesson.get(turn));
    }
    return out;
  }

  QuizSession session(String learner, String sessionId) {
    return sessions.find(sessionId, learner).orElseThrow(() -> new NotFoundResponse("no quiz session '" + sessionId + "'"));
  }

  Question question(String questionId) {
    if (questionId == null || !Question.ID.matcher(questionId).matches()) {
      throw new BadRequestResponse("malformed question id '" + questionId + "'; expected <lesson>/<item> or <lesson>/<item>/<variant>");
    }
    return bank.find(questionId).orElseThrow(() -> new NotFoundResponse("lesson '"
        + questionId.substring(0, questionId.indexOf('/')) + "' has no question '" + questionId + "'"));
  }

  /** A {@code quiz.answer} event's data, checked: the session, the question, and what was given. */
  record Submission(String session, Question question, Grader.Given given) {}

  private static final List<String> DATA_FIELDS = List.of("session", "question", "choice", "order", "rating", "skip");
  /** The most options an order question has, with room to spare: a longer list is no answer to any. */
  private static final int MAX_ORDER = 50;
  private static final Pattern SESSION_ID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  /** Checks a {@code quiz.answer} event before anything is stored; every problem is a 4xx naming the culprit. */
  Submission parse(Lesson lesson, String item, ObjectNode data) {
    JsonFields fields = JsonFields.of(data, "data", DATA_FIELDS);
    String sessionId = fields.optionalText("session").orElse(null);
    if (sessionId == null || !SESSION_ID.matcher(sessionId).matches()) {
      throw new BadRequestResponse("'data.session' must be a quiz session id, got " + (sessionId == null ? "nothing" : "'" + sessionId + "'"));
    }
    Question question = question(fields.text("question"));
    if (!question.lesson().equals(lesson.id())) {
      throw new BadRequestResponse("question '" + question.id() + "' belongs to lesson '" + question.lesson()
          + "', not '" + lesson.id() + "'");
    }
    if (!question.item().equals(item)) {
      throw new BadRequestResponse("'item' must be '" + question.item() + "', the item question '" + question.id()
          + "' is about, got '" + item + "'");
    }
    Grader.Given given = new Grader.Given(fields.optionalInteger("choice").orElse(null),
        fields.optionalIntegers("order", MAX_ORDER).orElse(null), fields.optionalInteger("rating").orElse(null),
        fields.optionalBool("skip").orElse(false));
    Grader.check(question, given);
    return new Submission(sessionId, question, given);
  }

  /**
   * Grades a new answer (called once per event id; a retry gets the stored result). The session must be the
   * learner's and hold the question; that the question is answered once per session is the event log's
   * {@link lab.exactlyonce.progress.Fact}, kept by a unique key.
   */
  ObjectNode grade(String learner, Lesson lesson, NewEvent event) {
    Submission s = parse(lesson, event.item(), event.data());
    QuizSession session = session(learner, s.session());
    if (!session.contains(s.question().id())) {
      throw new BadRequestResponse("question '" + s.question().id() + "' is not part of quiz session '" + session.id() + "'");
    }
    Grader.Verdict verdict = grader.grade(s.question(), s.given());
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    if (verdict.selfRated()) result.put("selfRated", true);
    else result.put("correct", verdict.correct());
    result.put("rating", verdict.rating());
    result.put("mode", session.mode().id);
    if (session.mode() == QuizSession.Mode.PRACTICE) {
      Fsrs.Card before = cards(learner, lesson.id()).get(s.question().id());
      result.put("comesBack", comesBack(before, Fsrs.Rating.of(verdict.rating())));
      result.put("expected", s.question().expected());
      result.put("explanation", s.question().explanation());
      result.put("link", s.question().link());
    }
    return result;
  }

  /** One recorded answer, read back from the event log. */
  record Answer(String id, String session, String question, boolean correct, int rating, Instant at, boolean skipped,
                Integer choice, List<Integer> order) {}

  /** The learner's quiz answers in a lesson, or every lesson ({@link QuizScope#ALL}), oldest first within each lesson. */
  List<Answer> answers(String learner, String scope) {
    List<Answer> out = new ArrayList<>();
    for (String lesson : bank.scope(scope).lessons()) out.addAll(answersIn(learner, lesson));
    return out;
  }

  private List<Answer> answersIn(String learner, String lesson) {
    List<Answer> out = new ArrayList<>();
    for (RecordedEvent e : events.inLesson(learner, lesson)) {
      if (!e.type().equals(ANSWER)) continue;
      JsonNode d = e.data();
      List<Integer> order = null;
      if (d.has("order")) {
        order = new ArrayList<>();
        for (JsonNode i : d.get("order")) order.add(i.asInt());
      }
      out.add(new Answer(e.id(), d.path("session").asText(), d.path("question").asText(),
          e.result().path("correct").asBoolean(), e.result().path("rating").asInt(), e.recordedAt(),
          d.path("skip").asBoolean(false), d.has("choice") ? d.get("choice").asInt() : null, order));
    }
    return out;
  }

  /**
   * Each question's memory state, replayed from every rating the learner gave it: quiz answers (a miss is Again, a
   * right answer Good, a self-graded one its rating), the lesson page's own self-ratings of the same item, and
   * checks of a fix-the-sink exercise, which review its verdict question (a failed check is Again, a passed one
   * Good), so an exercise the learner failed comes back in the next quiz. Each lesson keeps its own schedule; a scope
   * of every lesson ({@link QuizScope#ALL}) holds each lesson's cards, whose question ids name their lesson.
   */
  Map<String, Fsrs.Card> cards(String learner, String scope) {
    Map<String, Fsrs.Card> cards = new HashMap<>();
    for (String lesson : bank.scope(scope).lessons()) cards.putAll(cardsIn(learner, lesson));
    return cards;
  }

  private Map<String, Fsrs.Card> cardsIn(String learner, String lesson) {
    Map<String, List<Fsrs.Review>> reviews = new HashMap<>();
    for (RecordedEvent e : events.inLesson(learner, lesson)) {
      String question;
      int rating;
      if (e.type().equals(ANSWER)) {
        question = e.data().path("question").asText();
        rating = e.result().path("rating").asInt();
      } else if (e.type().equals(SELF_RATING)) {
        question = lesson + "/" + e.item();
        rating = e.data().path("rating").asInt();
      } else if (e.type().equals(EXERCISE_CHECK)) {
        // Only a check that reached the checker's verdicts says what the learner knows; a compile error does not.
        if (!e.result().path("status").asText().equals("ok")) continue;
        question = VerdictQuestions.id(lesson, e.item());
        rating = (e.result().path("passed").asBoolean(false) ? Fsrs.Rating.GOOD : Fsrs.Rating.AGAIN).value();
      } else {
        continue;
      }
      if (rating < 1 || rating > 4) continue;
      reviews.computeIfAbsent(question, q -> new ArrayList<>()).add(new Fsrs.Review(Fsrs.Rating.of(rating), e.recordedAt()));
    }
    Map<String, Fsrs.Card> cards = new HashMap<>();
    reviews.forEach((question, list) -> cards.put(question, fsrs.replay(list.get(0).at(), list)));
    return cards;
  }

  /**
   * When a question comes back if rated {@code rating} now ("in 1 min"); {@code card} is null for a question never
   * answered.
   */
  String comesBack(Fsrs.Card card, Fsrs.Rating rating) {
    return "in " + intervals(card).get(rating.value() - 1).label();
  }

  /**
   * How long until the question comes back for each rating, Again to Easy, if rated now: the scheduler's own next
   * due for this card (a learning or relearning step in minutes, a review in days), never a fixed table.
   *
   * @param card null for a question never answered
   */
  List<Interval> intervals(Fsrs.Card card) {
    Instant now = clock.instant();
    Fsrs.Card from = card == null ? Fsrs.Card.fresh(now) : card;
    List<Interval> out = new ArrayList<>();
    for (Fsrs.Rating rating : Fsrs.Rating.values()) out.add(Interval.until(now, fsrs.review(from, rating, now).due()));
    return out;
  }

  /** {@link #intervals} for each of a lesson's ladder questions, as this learner's ratings left them. */
  Map<String, List<Interval>> ladderIntervals(String learner, Lesson lesson) {
    Map<String, Fsrs.Card> cards = learner == null ? Map.of() : cards(learner, lesson.id());
    Map<String, List<Interval>> out = new LinkedHashMap<>();
    for (String rung : lesson.ladder().keySet()) out.put(rung, intervals(cards.get(lesson.id() + "/" + rung)));
    return out;
  }

  /** Where a learner stands with the questions of a lesson, or of every lesson: never answered, due by the end of today, or due later. */
  record Standing(int fresh, int due, int learned) {}

  Standing standing(String learner, String lesson) {
    Instant endOfToday = endOfToday();
    Map<String, Fsrs.Card> cards = cards(learner, lesson);
    int fresh = 0;
    int due = 0;
    int learned = 0;
    for (Question q : bank.questions(lesson)) {
      Fsrs.Card card = cards.get(q.id());
      if (card == null) fresh++;
      else if (!card.due().isAfter(endOfToday)) due++;
      else learned++;
    }
    return new Standing(fresh, due, learned);
  }

  /** How many of the lesson's questions this learner has seen and should review by the end of today (UTC). */
  int dueToday(String learner, String lesson) {
    return standing(learner, lesson).due();
  }

  Instant now() {
    return clock.instant();
  }

  Instant endOfToday() {
    return ReviewDay.endOfDay(clock.instant());
  }

  /** One question's line on the end screen. */
  record Line(Question question, Answer answer) {
    boolean answered() { return answer != null; }

    /**
     * Whether the learner rated this answer themselves (a self-graded question): it never counts in a score, and is
     * shown apart with its rating. Decided by the question, so answers stored before self-ratings stopped being
     * marked right read the same.
     */
    boolean selfRated() { return question.selfGraded(); }

    /** Right by the grader; a self-rated answer is never right or wrong. */
    boolean correct() { return !selfRated() && answer != null && answer.correct(); }

    /**
     * Worth another look: a graded answer that was wrong, unanswered or timed out; a self-rated one the learner
     * rated Again (did not know it), or did not rate.
     */
    boolean missed() {
      if (answer == null || answer.skipped()) return true;
      return selfRated() ? answer.rating() == Fsrs.Rating.AGAIN.value() : !answer.correct();
    }
  }

  record TopicScore(String topic, int correct, int total) {}

  /** @param topics the score by topic, of the graded questions only */
  record Results(QuizSession session, List<Line> lines, List<TopicScore> topics) {
    /** The score: graded answers that were right, out of {@link #graded()}. */
    int correct() { return (int) lines.stream().filter(Line::correct).count(); }

    /** The questions the score is out of: every question but the self-rated ones. */
    int graded() { return (int) lines.stream().filter(l -> !l.selfRated()).count(); }

    /** Graded questions not answered yet. */
    int gradedOpen() { return (int) lines.stream().filter(l -> !l.selfRated() && !l.answered()).count(); }

    int answered() { return (int) lines.stream().filter(Line::answered).count(); }

    List<Line> selfRated() { return lines.stream().filter(Line::selfRated).toList(); }

    List<Line> misses() { return lines.stream().filter(Line::missed).toList(); }

    boolean finished() { return answered() == lines.size(); }
  }

  Results results(String learner, String sessionId) {
    QuizSession session = session(learner, sessionId);
    Map<String, Answer> byQuestion = new HashMap<>();
    for (Answer a : answers(learner, session.lesson())) {
      if (a.session().equals(session.id())) byQuestion.putIfAbsent(a.question(), a);
    }
    List<Line> lines = new ArrayList<>();
    Map<String, int[]> topics = new LinkedHashMap<>();
    for (String id : session.questions()) {
      // A question can be missing for a while (its snippet runs not finished since a restart) or for good (the
      // lesson no longer has the item): the session goes on without it rather than failing.
      Optional<Question> found = bank.find(id);
      if (found.isEmpty()) continue;
      Question q = found.get();
      Line line = new Line(q, byQuestion.get(id));
      lines.add(line);
      if (line.selfRated()) continue;
      int[] score = topics.computeIfAbsent(q.topic(), t -> new int[2]);
      if (line.correct()) score[0]++;
      score[1]++;
    }
    List<TopicScore> topicScores = new ArrayList<>();
    topics.forEach((topic, s) -> topicScores.add(new TopicScore(topic, s[0], s[1])));
    return new Results(session, lines, topicScores);
  }
}
