package lab.exactlyonce.quiz;

import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What brings a learner back: the questions due for review (from their own schedule, as {@link Quiz#cards} replays
 * it), and review sessions of exactly those, or of exactly a quiz's misses. A review is a practice quiz with its
 * questions fixed, not chosen by a seed, topic or length. Bad input is a Javalin 4xx naming the culprit; nothing to
 * review is a 409 saying so.
 */
final class Reviews {
  private final Quiz quiz;
  private final QuizSessions sessions;
  private final Clock clock;

  Reviews(Quiz quiz, QuizSessions sessions, Clock clock) {
    this.quiz = quiz;
    this.sessions = sessions;
    this.clock = clock;
  }

  /**
   * A learner's reviews in a lesson: the questions due by the end of today (UTC, as {@link Quiz#standing} counts
   * them), earliest first, and when the first question due later comes due (null when none is).
   */
  record Due(List<String> questions, Instant next) {
    static final Due NOTHING = new Due(List.of(), null);

    Due {
      questions = List.copyOf(questions);
    }
  }

  Due due(String learner, String lesson) {
    Map<String, Fsrs.Card> cards = quiz.cards(learner, lesson);
    // Someone who never answered has nothing due: the bank (whose sandbox-built questions start running on first
    // use) is not asked on their behalf.
    if (cards.isEmpty()) return Due.NOTHING;
    Instant endOfToday = quiz.endOfToday();
    List<Question> due = new ArrayList<>();
    Instant next = null;
    for (Question q : quiz.bank().questions(lesson)) {
      Fsrs.Card card = cards.get(q.id());
      if (card == null) continue;
      if (!card.due().isAfter(endOfToday)) due.add(q);
      else if (next == null || card.due().isBefore(next)) next = card.due();
    }
    due.sort(Comparator.<Question, Instant>comparing(q -> cards.get(q.id()).due()).thenComparing(Question::id));
    return new Due(due.stream().map(Question::id).toList(), next);
  }

  /**
   * What a learner asks for when starting a review instead of a quiz: {@code kind} {@code due} (the questions due
   * for review) or {@code misses} (the questions missed in quiz {@code session}).
   */
  record Start(String lesson, String kind, String session) {}

  /**
   * A practice session of exactly the questions a {@link Start} names.
   *
   * @param learner the asker, or {@code ""} for someone without a learner cookie (who has nothing to review)
   */
  QuizSession start(String learner, Start start) {
    if (start.lesson() == null || start.lesson().isBlank()) throw new BadRequestResponse("'lesson' is required");
    String lesson = quiz.bank().scope(start.lesson()).id();
    if ("due".equals(start.kind())) {
      if (start.session() != null) throw new BadRequestResponse("'session' goes only with 'review': 'misses'");
      return startDue(learner, lesson);
    }
    if ("misses".equals(start.kind())) {
      if (start.session() == null) throw new BadRequestResponse("'session' is required with 'review': 'misses'");
      return startMisses(learner, lesson, start.session());
    }
    throw new BadRequestResponse("'review' must be due or misses, got "
        + (start.kind() == null ? "nothing" : "'" + start.kind() + "'"));
  }

  /** The first {@link Quiz#MAX_LENGTH} questions due for review, earliest due first. */
  private QuizSession startDue(String learner, String lesson) {
    List<String> due = due(learner, lesson).questions();
    if (due.isEmpty()) {
      throw new ConflictResponse((lesson.equals(QuizScope.ALL) ? "nothing in any lesson" : "nothing in lesson '" + lesson + "'")
          + " is due for review now");
    }
    return startFixed(learner, lesson, due.subList(0, Math.min(due.size(), Quiz.MAX_LENGTH)));
  }

  /** The questions missed in the session, in its order. */
  private QuizSession startMisses(String learner, String lesson, String sessionId) {
    Quiz.Results results = quiz.results(learner, sessionId);
    if (!results.session().lesson().equals(lesson)) {
      throw new BadRequestResponse("quiz session '" + sessionId + "' is in lesson '" + results.session().lesson()
          + "', not '" + lesson + "'");
    }
    List<String> missed = results.misses().stream().map(l -> l.question().id()).toList();
    if (missed.isEmpty()) throw new ConflictResponse("quiz session '" + sessionId + "' has no misses to review");
    return startFixed(learner, lesson, missed);
  }

  private QuizSession startFixed(String learner, String lesson, List<String> questions) {
    // No seed chose these questions; 0 says so in the learner's export.
    QuizSession session = new QuizSession(UUID.randomUUID().toString(), learner, lesson, QuizSession.Mode.PRACTICE, 0,
        questions, 0, clock.instant());
    sessions.add(session);
    return session;
  }
}
