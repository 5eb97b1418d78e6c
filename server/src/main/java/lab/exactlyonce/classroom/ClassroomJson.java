package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;

import java.time.Duration;
import java.util.List;
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
   * The leaderboard each student sees, by learner id, with "you" marked: the running session's board, or the podium
   * of the session that ended last; empty while the board is off or the class is closed.
   *
   * @param online the students online in the class now (the running session ranks those present)
   */
  static Function<String, Object> leaderboards(Classroom classroom, Room room, Set<String> online) {
    if (!room.leaderboard().shown() || room.closed()) return learner -> new Fragment("");
    Classroom.Board board = classroom.board(room, online);
    if (!board.ended()) return learner -> Fragment.of(LiveViews.leaderboard(room, board.standings(), learner));
    if (board.standings().isEmpty()) return learner -> new Fragment("");
    return learner -> Fragment.of(LiveViews.podium(room, board.standings(), learner));
  }

  /**
   * A student's own place and points in the running session, or in the one that ended last, whether or not the
   * board is shown to the class (they are the student's own).
   *
   * @param session the session, null before the class's first
   * @param ended whether that session is over
   * @param place their place (shared by equal points), null while they are not on the board
   * @param of how many students the board ranks
   * @param shared whether someone else has the same place
   */
  record StandingView(String session, boolean ended, Integer place, int of, int points, boolean shared) {}

  static StandingView standing(Classroom classroom, Room room, String learner, Set<String> online) {
    Classroom.Board board = classroom.board(room, online);
    Optional<Standing> mine = board.standings().of(learner);
    return new StandingView(board.session(), board.ended(), mine.map(Standing::place).orElse(null),
        board.standings().size(), mine.map(Standing::points).orElse(0), mine.map(Standing::tied).orElse(false));
  }
}
