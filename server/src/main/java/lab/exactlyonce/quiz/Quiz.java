package lab.exactlyonce.quiz;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.NotFoundResponse;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;

/**
 * The quiz, free of HTTP: starts sessions (due questions first, then new ones, in an order fixed by a seed),
 * grades and records answers exactly once, derives schedules and results from the recorded answers.
 */
final class Quiz {
  static final int MAX_LENGTH = 50;
  static final int DEFAULT_LENGTH = 10;
  static final int DEFAULT_SECONDS = 60;

  private final QuestionBank bank;
  private final AnswerLog answers;
  private final QuizSessions sessions;
  private final Grader grader = new Grader();
  private final Fsrs fsrs = new Fsrs();
  private final Clock clock;

  Quiz(QuestionBank bank, AnswerLog answers, QuizSessions sessions, Clock clock) {
    this.bank = bank;
    this.answers = answers;
    this.sessions = sessions;
    this.clock = clock;
  }

  QuestionBank bank() {
    return bank;
  }

  /** What a learner asks for when starting a quiz; null fields take defaults. */
  record Start(String lesson, String mode, Integer length, String topic, Long seed, Integer seconds) {}

  QuizSession start(String learner, Start start) {
    if (start.lesson() == null || start.lesson().isBlank()) throw new BadRequestResponse("'lesson' is required");
    String lesson = bank.lesson(start.lesson()).id();
    QuizSession.Mode mode = start.mode() == null ? QuizSession.Mode.PRACTICE : QuizSession.Mode.parse(start.mode());
    if (mode == null) throw new BadRequestResponse("'mode' must be practice or interview, got '" + start.mode() + "'");
    int length = start.length() == null ? DEFAULT_LENGTH : start.length();
    if (length < 1 || length > MAX_LENGTH) {
      throw new BadRequestResponse("'length' must be between 1 and " + MAX_LENGTH + ", got " + length);
    }
    int seconds = start.seconds() == null ? DEFAULT_SECONDS : start.seconds();
    if (seconds < 5 || seconds > 600) throw new BadRequestResponse("'seconds' must be between 5 and 600, got " + seconds);
    List<Question> pool = bank.questions(lesson);
    String topic = start.topic() == null || start.topic().isBlank() ? null : start.topic();
    if (topic != null) {
      List<String> topics = bank.topics(lesson);
      if (!topics.contains(topic)) {
        throw new BadRequestResponse("lesson '" + lesson + "' has no topic '" + topic + "'; topics: " + String.join(", ", topics));
      }
      pool = pool.stream().filter(q -> q.topic().equals(topic)).toList();
    }
    long seed = start.seed() != null ? start.seed() : new Random().nextLong();
    List<String> chosen = choose(pool, cards(learner, lesson), length, seed);
    QuizSession session = new QuizSession(UUID.randomUUID().toString(), learner, lesson, mode, seed, chosen,
        mode == QuizSession.Mode.INTERVIEW ? seconds : 0, clock.instant());
    sessions.add(session);
    return session;
  }

  /** Due (by end of today, earliest first), then new (shuffled by the seed), then the rest (soonest due first). */
  List<String> choose(List<Question> pool, Map<String, Fsrs.Card> cards, int length, long seed) {
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
    for (List<Question> group : List.of(due, fresh, later)) {
      for (Question q : group) if (chosen.size() < length) chosen.add(q.id());
    }
    return chosen;
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

  /** An answer as it arrives: the client's event id, the session, the question, and what was given. */
  record Submission(String id, String session, String question, Grader.Given given) {}

  /** What the learner is told: {@code verdict} is empty in interview mode until the end. */
  record Outcome(AnswerLog.Answer answer, boolean repeated, Question question, QuizSession session) {}

  Outcome answer(String learner, Submission submission) {
    QuizSession session = session(learner, submission.session());
    Question question = question(submission.question());
    if (!session.contains(question.id())) {
      throw new BadRequestResponse("question '" + question.id() + "' is not part of quiz session '" + session.id() + "'");
    }
    Grader.Verdict verdict = grader.grade(question, submission.given());
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("session", session.id());
    data.put("question", question.id());
    Grader.Given g = submission.given();
    if (g.skip()) data.put("skip", true);
    else if (g.choice() != null) data.put("choice", g.choice());
    else if (g.order() != null) data.put("order", g.order());
    else data.put("rating", g.rating());
    AnswerLog.Answer answer = new AnswerLog.Answer(submission.id(), session.lesson(), question.item(), data,
        verdict.asResult(), clock.instant());
    synchronized (this) {
      Optional<AnswerLog.Answer> earlier = answers.answers(learner, session.lesson()).stream()
          .filter(a -> a.session().equals(session.id()) && a.question().equals(question.id())).findFirst();
      if (earlier.isPresent() && !earlier.get().id().equals(submission.id())) {
        throw new ConflictResponse("question '" + question.id() + "' was already answered in quiz session '" + session.id() + "'");
      }
      AnswerLog.Recorded recorded = answers.record(learner, answer);
      return new Outcome(recorded.answer(), recorded.repeated(), question, session);
    }
  }

  /** Each question's memory state, replayed from every answer the learner recorded for it. */
  Map<String, Fsrs.Card> cards(String learner, String lesson) {
    Map<String, List<Fsrs.Review>> reviews = new HashMap<>();
    Map<String, Instant> first = new HashMap<>();
    for (AnswerLog.Answer a : answers.answers(learner, lesson)) {
      reviews.computeIfAbsent(a.question(), q -> new ArrayList<>()).add(new Fsrs.Review(Fsrs.Rating.of(a.rating()), a.recordedAt()));
      first.merge(a.question(), a.recordedAt(), (x, y) -> x.isBefore(y) ? x : y);
    }
    Map<String, Fsrs.Card> cards = new HashMap<>();
    reviews.forEach((question, list) -> cards.put(question, fsrs.replay(first.get(question), list)));
    return cards;
  }

  /** How many of the lesson's questions this learner has seen and should review by the end of today (UTC). */
  int dueToday(String learner, String lesson) {
    Instant endOfToday = endOfToday();
    Map<String, Fsrs.Card> cards = cards(learner, lesson);
    int due = 0;
    for (Question q : bank.questions(lesson)) {
      Fsrs.Card card = cards.get(q.id());
      if (card != null && !card.due().isAfter(endOfToday)) due++;
    }
    return due;
  }

  private Instant endOfToday() {
    LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    return today.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusNanos(1);
  }

  /** One question's line on the end screen. */
  record Line(Question question, AnswerLog.Answer answer) {
    boolean answered() { return answer != null; }

    boolean correct() { return answer != null && answer.correct(); }
  }

  record TopicScore(String topic, int correct, int total) {}

  record Results(QuizSession session, List<Line> lines, List<TopicScore> topics) {
    int correct() { return (int) lines.stream().filter(Line::correct).count(); }

    int answered() { return (int) lines.stream().filter(Line::answered).count(); }

    List<Line> misses() { return lines.stream().filter(l -> !l.correct()).toList(); }

    boolean finished() { return answered() == lines.size(); }
  }

  Results results(String learner, String sessionId) {
    QuizSession session = session(learner, sessionId);
    Map<String, AnswerLog.Answer> byQuestion = new HashMap<>();
    for (AnswerLog.Answer a : answers.answers(learner, session.lesson())) {
      if (a.session().equals(session.id())) byQuestion.putIfAbsent(a.question(), a);
    }
    List<Line> lines = new ArrayList<>();
    Map<String, int[]> topics = new LinkedHashMap<>();
    for (String id : session.questions()) {
      Question q = bank.find(id).orElseThrow(() -> new IllegalStateException("session question vanished: " + id));
      Line line = new Line(q, byQuestion.get(id));
      lines.add(line);
      int[] score = topics.computeIfAbsent(q.topic(), t -> new int[2]);
      if (line.correct()) score[0]++;
      score[1]++;
    }
    List<TopicScore> topicScores = new ArrayList<>();
    topics.forEach((topic, s) -> topicScores.add(new TopicScore(topic, s[0], s[1])));
    return new Results(session, lines, topicScores);
  }
}
