package lab.exactlyonce.classroom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.ConflictResponse;
import io.javalin.http.ForbiddenResponse;
import io.javalin.http.NotFoundResponse;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.progress.EventLog;
import lab.exactlyonce.progress.Fact;
import lab.exactlyonce.progress.NewEvent;
import lab.exactlyonce.progress.RecordedEvent;
import lab.exactlyonce.quiz.LiveBank;
import lab.exactlyonce.store.StoreException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The classroom: classes, joining, removing, live rounds and their answers, answer holds. It speaks no HTTP, but
 * refuses a bad request by throwing Javalin's 4xx responses, named for what was wrong (the project's error model).
 * Answers are {@code quiz.answer} events recorded exactly once through the {@link EventLog}; tallies are derived from
 * them: a node keeps each round's tally in memory, counting its own answers as they come, and derives it from the
 * log again whenever it may be missing answers (after a restart, an answer on another node, a reveal).
 */
final class Classroom {
  /** The largest JSON body a classroom request may send: a nickname, a code, an answer or a list of holds. */
  static final int MAX_REQUEST_BYTES = 4096;
  /** The most ladder questions one holds request may name; a lesson's ladder is far shorter. */
  static final int MAX_HOLDS = 100;
  /** The shortest time limit a live question may have: less is too short to read a question. */
  static final int MIN_LIMIT_SECONDS = 5;
  /** The longest time limit a live question may have; a question left open longer needs none. */
  static final int MAX_LIMIT_SECONDS = 600;

  private final ClassStore store;
  private final EventLog events;
  private final LiveBank bank;
  private final LessonCatalog lessons;
  private final Clock clock;
  private final JoinCodes codes = new JoinCodes();
  private final Map<String, Map<String, Integer>> tallies = new ConcurrentHashMap<>();
  private final LiveScores scores;

  Classroom(ClassStore store, EventLog events, LiveBank bank, LessonCatalog lessons, Clock clock) {
    this.store = store;
    this.events = events;
    this.bank = bank;
    this.lessons = lessons;
    this.clock = clock;
    this.scores = new LiveScores(store);
  }

  ClassStore store() {
    return store;
  }

  LiveBank bank() {
    return bank;
  }

  Lesson lesson(Room room) {
    return lessons.require(room.lesson());
  }

  List<Lesson> lessons() {
    return lessons.all();
  }

  /**
   * The questions an instructor can ask the class live: those of every lesson, the class's own lesson first, so a
   * class studying one lesson can be asked about another it has met.
   */
  List<LiveBank.LiveQuestion> liveQuestions(Room room) {
    List<LiveBank.LiveQuestion> out = new ArrayList<>(bank.questions(room.lesson()));
    for (Lesson other : lessons.all()) if (!other.id().equals(room.lesson())) out.addAll(bank.questions(other.id()));
    return out;
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  // --- classes

  Room create(String name, String lessonId) {
    if (name == null || name.isBlank()) throw new BadRequestResponse("'name' is required: what do you call this class?");
    String clean = name.strip();
    if (clean.codePointCount(0, clean.length()) > Room.MAX_NAME) {
      throw new BadRequestResponse("'name' is " + clean.codePointCount(0, clean.length()) + " characters; the limit is " + Room.MAX_NAME);
    }
    if (clean.codePoints().anyMatch(Character::isISOControl)) throw new BadRequestResponse("'name' must not contain control characters");
    String lesson = lessonId == null || lessonId.isBlank() ? lessons.all().get(0).id() : lessonId;
    if (lessons.find(lesson).isEmpty()) {
      throw new BadRequestResponse("no lesson '" + lesson + "'; lessons here: "
          + String.join(", ", lessons.all().stream().map(Lesson::id).toList()));
    }
    for (int attempt = 0; ; attempt++) {
      Room room = new Room(UUID.randomUUID().toString(), clean, lesson, codes.next(), now(), null, null, null, Leaderboard.OFF);
      try {
        store.insert(room);
        return room;
      } catch (StoreException e) {
        if (!e.isDuplicateKey() || attempt > 20) throw e; // a code clash: draw another
      }
    }
  }

  Room room(String id) {
    return store.find(id).orElseThrow(() -> new NotFoundResponse("no class '" + id + "'"));
  }

  Room open(String id) {
    Room room = room(id);
    if (room.closed()) throw new ConflictResponse("class '" + room.name() + "' is closed");
    return room;
  }

  Room rotate(String id) {
    open(id);
    for (int attempt = 0; ; attempt++) {
      try {
        store.setCode(id, codes.next());
        return room(id);
      } catch (StoreException e) {
        if (!e.isDuplicateKey() || attempt > 20) throw e;
      }
    }
  }

  Room close(String id) {
    room(id);
    store.close(id, now());
    return room(id);
  }

  Member removeStudent(String classId, String learnerId) {
    room(classId);
    Member member = store.member(classId, learnerId).filter(m -> !m.removed())
        .orElseThrow(() -> new NotFoundResponse("class has no student '" + learnerId + "'"));
    store.remove(classId, learnerId, now());
    return member;
  }

  /** The open class a join code names, or 404. */
  Room byCode(String typed) {
    String code = JoinCodes.normalise(typed);
    if (code.isEmpty()) throw new BadRequestResponse("'code' is required: the " + JoinCodes.LENGTH + "-character code your instructor shows");
    if (!JoinCodes.wellFormed(code)) {
      throw new NotFoundResponse("no class has the join code '" + preview(typed) + "'; check it with your instructor");
    }
    Room room = store.byCode(code)
        .orElseThrow(() -> new NotFoundResponse("no class has the join code '" + code + "'; check it with your instructor"));
    if (room.closed()) throw new NotFoundResponse("class '" + room.name() + "' is closed");
    return room;
  }

  private static String preview(String typed) {
    String t = typed.strip();
    return t.length() > 20 ? t.substring(0, 20) + "..." : t;
  }

  /** The learner's membership, or empty; 403 when they were removed. */
  Optional<Member> membership(Room room, String learnerId) {
    Optional<Member> m = store.member(room.id(), learnerId);
    if (m.isPresent() && m.get().removed()) {
      throw new ForbiddenResponse("you were removed from class '" + room.name() + "'");
    }
    return m;
  }

  /** A membership and whether this join made it (false: the learner was a member already). */
  record Joining(Member member, boolean created) {}

  /**
   * Adds the learner; 409 when the nickname is taken (ignoring case). The unique keys decide between concurrent
   * joins: a learner joins a class once, and a nickname belongs to one member of it.
   */
  Joining join(Room room, String learnerId, String nickname) {
    Member member = new Member(room.id(), learnerId, nickname, now(), null);
    try {
      store.addMember(member);
      return new Joining(member, true);
    } catch (StoreException e) {
      if (!e.isDuplicateKey()) throw e;
      Optional<Member> raced = membership(room, learnerId); // a concurrent join of the same learner made it
      if (raced.isPresent()) return new Joining(raced.get(), false);
      throw new ConflictResponse("the nickname '" + nickname + "' is taken in this class; pick another");
    }
  }

  /** The member's record for a student request: 404 no class, 403 not a member or removed. */
  Member requireMember(String classId, Optional<String> learnerId) {
    Room room = room(classId);
    if (learnerId.isEmpty()) throw new ForbiddenResponse("you are not a member of this class: join it with its code at /join");
    return membership(room, learnerId.get())
        .orElseThrow(() -> new ForbiddenResponse("you are not a member of this class: join it with its code at /join"));
  }

  // --- pacing

  /** The ladder question ids of the class's lesson, in page order. */
  List<String> ladder(Room room) {
    return List.copyOf(lesson(room).ladder().keySet());
  }

  /** Replaces the held items; returns the items released by the change. */
  List<String> setHolds(String classId, Collection<String> held) {
    Room room = open(classId);
    List<String> ladder = ladder(room);
    for (String item : held) {
      if (!ladder.contains(item)) {
        throw new BadRequestResponse("lesson '" + room.lesson() + "' has no ladder question '" + item + "'; its ladder: "
            + String.join(", ", ladder));
      }
    }
    Set<String> before = store.holds(classId);
    store.setHolds(classId, ladder.stream().filter(held::contains).toList());
    return before.stream().filter(item -> !held.contains(item)).toList();
  }

  // --- live rounds

  /** @param limitSeconds the time students have to answer, or null for no limit */
  Round push(String classId, String questionId, Integer limitSeconds) {
    Room room = open(classId);
    if (questionId == null || questionId.isBlank()) throw new BadRequestResponse("'question' is required");
    if (limitSeconds != null && (limitSeconds < MIN_LIMIT_SECONDS || limitSeconds > MAX_LIMIT_SECONDS)) {
      throw new BadRequestResponse("'timeLimit' must be a number of seconds from " + MIN_LIMIT_SECONDS + " to "
          + MAX_LIMIT_SECONDS + " (or left out for no limit), got " + limitSeconds);
    }
    LiveBank.LiveQuestion q = bank.find(questionId).orElseThrow(() -> new NotFoundResponse("no lesson has a question '"
        + questionId + "' that can be asked live (choice, true/false or predict-the-output)"));
    String session = room.liveSession() != null ? room.liveSession() : UUID.randomUUID().toString();
    Instant pushed = now();
    Instant deadline = limitSeconds == null ? null : pushed.plusSeconds(limitSeconds);
    Round round = new Round(UUID.randomUUID().toString(), classId, session, q.id(), pushed, null, deadline);
    tallies.put(round.id(), new ConcurrentHashMap<>());
    store.addRound(round);
    return round;
  }

  /**
   * Pushes the {@linkplain QuestionPicker#next next question} not asked yet, with {@code limitSeconds} or, when
   * null, the last question's time limit: what a projector's Next asks for, away from the dashboard's picker.
   */
  Round next(String classId, Integer limitSeconds) {
    Room room = open(classId);
    List<Round> rounds = store.rounds(classId);
    LiveBank.LiveQuestion q = QuestionPicker.next(liveQuestions(room), rounds)
        .orElseThrow(() -> new ConflictResponse("class '" + room.name() + "' was asked every live question: choose one"
            + " to ask again on the dashboard"));
    Integer limit = limitSeconds;
    if (limit == null && !rounds.isEmpty()) {
      Duration last = rounds.get(rounds.size() - 1).limit();
      limit = last == null ? null : (int) last.toSeconds();
    }
    return push(classId, q.id(), limit);
  }

  /** The time left to answer the round now: empty without a limit, zero once it is up. */
  Optional<Duration> left(Round round) {
    return round.left(now());
  }

  /** The round on screen now, if any. */
  Optional<Round> current(Room room) {
    return room.currentRound() == null ? Optional.empty() : store.round(room.currentRound());
  }

  Round reveal(String classId) {
    Room room = open(classId);
    Round round = current(room).orElseThrow(() -> new ConflictResponse("no question is open in class '" + room.name() + "'"));
    if (!round.revealed()) store.reveal(round.id(), now());
    forgetTally(round.id()); // the counts shown from now on are every node's answers
    return store.round(round.id()).orElseThrow();
  }

  void end(String classId) {
    open(classId);
    store.setLive(classId, null, null);
  }

  void leaderboard(String classId, boolean show, boolean anonymous) {
    open(classId);
    store.setLeaderboard(classId, Leaderboard.of(show, anonymous));
  }

  LiveBank.LiveQuestion question(Round round) {
    return bank.find(round.questionId()).orElseThrow(() -> new IllegalStateException(
        "round " + round.id() + " asks question " + round.questionId() + ", which the bank no longer has"));
  }

  /** Learner id to the option they chose, for a round; derived from the event log once, then kept up to date. */
  Map<String, Integer> tally(Round round) {
    return tallies.computeIfAbsent(round.id(), id -> {
      Map<String, Integer> choices = new ConcurrentHashMap<>();
      Room room = room(round.classId());
      for (ClassStore.MemberEvent e : store.events(round.classId(), LiveBank.ANSWER_TYPE)) {
        JsonNode d = e.event().data();
        if (round.id().equals(d.path("round").asText())) choices.putIfAbsent(e.learnerId(), d.path("choice").asInt());
      }
      return choices;
    });
  }

  /** The round's tally may lack answers taken elsewhere: the next look derives it from the log again. */
  void forgetTally(String roundId) {
    tallies.remove(roundId);
  }

  /** The option {@code learner} chose in the round, or null: looked up in the log when this node has not seen it. */
  Integer choiceOf(Round round, String learner) {
    Integer cached = tally(round).get(learner);
    return cached != null ? cached : store.liveChoice(Fact.liveAnswer(round.id(), learner).key()).orElse(null);
  }

  /** Counts per option of a round. */
  int[] histogram(Round round) {
    int[] counts = new int[question(round).options().size()];
    for (int choice : tally(round).values()) if (choice >= 0 && choice < counts.length) counts[choice]++;
    return counts;
  }

  /** A student's answer to a live round, as sent. */
  record Answer(String id, String round, Integer choice) {}

  /**
   * Records an answer exactly once. A resend of the same id returns the original response; the same id with another
   * body is 409; a second answer to the round under another id is 409; a round that is not open is 404/409.
   *
   * @return the receipt, identical for the first send and every retry
   */
  Receipt answer(Room room, String learnerId, Answer answer) {
    if (answer.round() == null || answer.round().isBlank()) throw new BadRequestResponse("'round' is required");
    if (answer.choice() == null) throw new BadRequestResponse("'choice' is required: the index of the option you chose");
    String id;
    try {
      id = NewEvent.eventId(answer.id());
    } catch (IllegalArgumentException e) {
      throw new BadRequestResponse(e.getMessage());
    }
    Optional<RecordedEvent> earlier = events.find(learnerId, id);
    if (earlier.isPresent()) return replay(earlier.get(), answer);
    Round round = store.round(answer.round()).filter(r -> r.classId().equals(room.id()))
        .orElseThrow(() -> new NotFoundResponse("this class has no question round '" + answer.round() + "'"));
    if (!round.id().equals(room.currentRound()) || round.revealed()) {
      throw new ConflictResponse("question round '" + round.id() + "' is closed: answers are no longer accepted");
    }
    if (round.closedToAnswers(now())) {
      throw new ConflictResponse("time is up for this question: answers closed "
          + Duration.between(round.pushedAt(), round.deadline()).toSeconds() + " seconds after it was asked");
    }
    LiveBank.LiveQuestion q = question(round);
    if (answer.choice() < 0 || answer.choice() >= q.options().size()) {
      throw new BadRequestResponse("'choice' must be an option index from 0 to " + (q.options().size() - 1) + ", got " + answer.choice());
    }
    Map<String, Integer> tally = tally(round);
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.put("session", round.session());
    data.put("question", q.id());
    data.put("choice", answer.choice());
    data.put("round", round.id());
    data.put("class", room.id());
    NewEvent event = new NewEvent(id, LiveBank.ANSWER_TYPE, q.lesson(), q.item(), data);
    boolean correct = answer.choice() == q.answer();
    // One answer per student and round is kept by the fact's unique key, which also sees concurrent requests that a
    // look at the tally would miss.
    EventLog.Outcome outcome = events.record(learnerId, event, Fact.liveAnswer(round.id(), learnerId), e -> {
      ObjectNode result = JsonNodeFactory.instance.objectNode();
      result.put("correct", correct);
      result.put("rating", correct ? 3 : 1);
      result.put("mode", "live");
      return result;
    });
    if (outcome instanceof EventLog.Outcome.Taken taken) throw new ConflictResponse(taken.fact().refusal());
    if (outcome instanceof EventLog.Outcome.Conflict) {
      throw new ConflictResponse("answer id '" + id + "' was already used for a different answer; nothing was stored");
    }
    tally.putIfAbsent(learnerId, outcome.event().data().path("choice").asInt());
    return Receipt.of(outcome.event());
  }

  private static Receipt replay(RecordedEvent earlier, Answer answer) {
    JsonNode d = earlier.data();
    boolean same = earlier.type().equals(LiveBank.ANSWER_TYPE) && d.path("round").asText().equals(answer.round())
        && d.path("choice").isInt() && d.path("choice").asInt() == answer.choice();
    if (!same) {
      throw new ConflictResponse("answer id '" + earlier.id() + "' was already used for a different answer; nothing was stored");
    }
    return Receipt.of(earlier);
  }

  /** What a student's answer to a live round records, as they are told. */
  record Receipt(String id, String round, String question, int choice, String recordedAt) {
    static Receipt of(RecordedEvent e) {
      return new Receipt(e.id(), e.data().path("round").asText(), e.data().path("question").asText(),
          e.data().path("choice").asInt(), e.recordedAt().toString());
    }
  }

  /** Learner id to nickname, for the class's members. */
  Map<String, String> nicknames(Room room) {
    Map<String, String> names = new HashMap<>();
    for (Member m : store.members(room.id())) names.put(m.learnerId(), m.nickname());
    return names;
  }

  /**
   * A live session's board. A session runs from the first question pushed while none runs until End session (or the
   * class closing); after it ends its podium stays until the next push starts a new session, with a clean board.
   *
   * @param session the session running, or the one that ended last when none runs; null before the first
   * @param ended whether {@code session} is over (its standings are then the podium's)
   */
  record Board(String session, boolean ended, Standings standings) {}

  /**
   * The board as it stands: while a session runs, everyone present ({@code online}) or who answered one of its
   * revealed questions; once it ended, those who answered one (who was online then no longer matters).
   */
  Board board(Room room, Set<String> online) {
    boolean ended = room.liveSession() == null;
    String session = ended ? lastSession(room) : room.liveSession();
    LiveScores.Scores scores = this.scores.of(room, session);
    if (!scores.started()) return new Board(session, ended, Standings.EMPTY);
    return new Board(session, ended, Standings.rank(scores.points(), ended ? Set.of() : online, nicknames(room)));
  }

  /** The session of the class's last round, or null before the first. */
  private String lastSession(Room room) {
    List<Round> rounds = store.rounds(room.id());
    return rounds.isEmpty() ? null : rounds.get(rounds.size() - 1).session();
  }
}
