package lab.exactlyonce.classroom;

import j2html.tags.DomContent;
import lab.exactlyonce.quiz.LiveBank;

import java.util.List;
import java.util.Optional;
import java.util.Set;

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

  record QuestionEvent(String round, String question, String kind, List<String> options, String pushedAt, boolean revealed,
                       String html) implements StudentState {
    @Override
    public String event() {
      return "question";
    }
  }

  /** The {@code question} event; rendered for {@code learner} (their answer marked) when not null. */
  static QuestionEvent question(Classroom classroom, Round round, LiveBank.LiveQuestion q, String learner) {
    Integer mine = learner == null ? null : classroom.tally(round).get(learner);
    int[] counts = round.revealed() ? classroom.histogram(round) : new int[q.options().size()];
    return new QuestionEvent(round.id(), q.id(), q.kind(), q.options(), round.pushedAt().toString(), round.revealed(),
        LiveViews.studentQuestion(round, q, mine, counts).render());
  }

  /** The open question for {@code learner}, or idle: what a stream starts with and {@code GET .../state} answers. */
  static StudentState state(Classroom classroom, Room room, String learner) {
    Optional<Round> round = room.closed() ? Optional.empty() : classroom.current(room);
    if (round.isEmpty()) return Idle.of(room);
    return question(classroom, round.get(), classroom.question(round.get()), learner);
  }

  /** The leaderboard students see; empty while it is off. */
  static Fragment leaderboard(Classroom classroom, Room room) {
    return new Fragment(room.leaderboard().shown()
        ? LiveViews.leaderboard(room, classroom.scores(room), classroom.nicknames(room)).render() : "");
  }
}
