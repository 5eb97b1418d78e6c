package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** The JSON the classroom speaks that is more than one value: a class, and what a student's stream says. */
final class ClassroomJson {
  private ClassroomJson() {}

  /** A class as {@code /api/teach/classes} shows it. */
  record RoomView(String id, String name, String lesson, String code, String joinLink, String qr, String dashboard,
                  boolean closed, String createdAt, List<StudentView> students) {}

  record StudentView(String learner, String nickname, boolean online, String joinedAt) {}

  static RoomView room(Room room, String joinLink, List<Member> members, Set<String> online) {
    return new RoomView(room.id(), room.name(), room.lesson(), room.code(), joinLink, "/teach/classes/" + room.id() + "/qr.svg",
        "/teach/classes/" + room.id(), room.closed(), room.createdAt().toString(), members.stream()
        .map(m -> new StudentView(m.learnerId(), m.nickname(), online.contains(m.learnerId()), m.joinedAt().toString()))
        .toList());
  }

  /** The data of an event that replaces a fragment of the page: the server renders and escapes it. */
  record Fragment(String html) {
    static Fragment of(DomContent content) {
      return new Fragment(content.render());
    }
  }

  /** What a student sees of the live round: the event that names it, and its data. */
  sealed interface StudentState permits Idle, QuestionEvent {
    String event();
  }

  /** No question is open: {@code round} is always null. */
  record Idle(String round, String html) implements StudentState {
    static Idle of(Room room) {
      return new Idle(null, LiveViews.studentIdle(room).render());
    }

    @Override
    public String event() {
      return "idle";
    }
  }

  /** @param timeLimit the round's time limit in seconds, or null; {@code remainingMs} the time left when this was sent */
  record QuestionEvent(String round, String question, String kind, List<String> options, String pushedAt, Integer timeLimit,
                       Long remainingMs, boolean revealed, String html) implements StudentState {
    @Override
    public String event() {
      return "question";
    }
  }

  /** The round's card as {@code learner} sees it now (their answer marked; no one's when null). */
  static DomContent card(Classroom classroom, Round round, LiveBank.LiveQuestion q, String learner) {
    Integer mine = learner == null ? null : classroom.choiceOf(round, learner);
    int[] counts = round.revealed() ? classroom.histogram(round) : new int[q.options().size()];
    return LiveViews.studentQuestion(round, q, mine, counts, classroom.left(round));
  }

  /** The {@code question} event; rendered for {@code learner} (their answer marked) when not null. */
  static QuestionEvent question(Classroom classroom, Round round, LiveBank.LiveQuestion q, String learner) {
    Integer limit = round.deadline() == null ? null : (int) Duration.between(round.pushedAt(), round.deadline()).toSeconds();
    Long remaining = classroom.left(round).map(Duration::toMillis).orElse(null);
    return new QuestionEvent(round.id(), q.id(), q.kind(), q.options(), round.pushedAt().toString(), limit, remaining,
        round.revealed(), card(classroom, round, q, learner).render());
  }

  /** The open question for {@code learner}, or idle: what a stream starts with and {@code GET .../state} answers. */
  static StudentState state(Classroom classroom, Room room, String learner) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    if (round.isEmpty()) return Idle.of(room);
    return question(classroom, round.get(), classroom.question(round.get()), learner);
  }

  /**
   * The leaderboard each student sees, by learner id, with "you" marked; empty while it is off or no live session
   * runs (a session's end clears it from their screens).
   */
  static Function<String, Object> leaderboards(Classroom classroom, Room room) {
    if (!room.leaderboard().shown() || room.liveSession() == null) return learner -> new Fragment("");
    List<Map.Entry<String, Integer>> scores = classroom.scores(room);
    Map<String, String> names = classroom.nicknames(room);
    return learner -> Fragment.of(LiveViews.leaderboard(room, scores, names, learner));
  }
}
