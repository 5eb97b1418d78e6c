package lab.exactlyonce.classroom;

import lab.exactlyonce.quiz.LiveBank;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leaderboard's numbers: {@link Points} per member in a live session's revealed rounds, counted from the log, so
 * every node counts every node's answers alike. They change only when a round is revealed or the members change, so
 * each node counts them once per such change, checked against what the database holds, instead of on every stream
 * that opens: a class's phones waking together each read the whole session's answers before, and a thousand students'
 * reconnects held every database connection while the answers of an open question waited for one.
 */
final class LiveScores {
  /** Counted classes kept at most; past it the counts start over (a cache: counting again is always right). */
  private static final int MAX_CLASSES = 256;

  private final ClassStore store;
  private final Map<String, Counted> byClass = new ConcurrentHashMap<>();

  /**
   * A session's points so far.
   *
   * @param started whether a question of the session was revealed: before that the board has nothing to show
   * @param points points per learner who answered a revealed question of the session (0 for only wrong answers)
   */
  record Scores(boolean started, Map<String, Integer> points) {
    static final Scores NONE = new Scores(false, Map.of());

    Scores {
      points = Map.copyOf(points);
    }
  }

  /** @param basis the session, its revealed rounds and the members the count was made for */
  private record Counted(String basis, Scores scores) {}

  LiveScores(ClassStore store) {
    this.store = store;
  }

  /** The points in {@code session} of the room's class (null: no session, nothing scored). */
  Scores of(Room room, String session) {
    if (session == null) {
      byClass.remove(room.id());
      return Scores.NONE;
    }
    Map<String, Round> revealed = new HashMap<>();
    StringBuilder basis = new StringBuilder(session).append('|');
    for (Round r : store.rounds(room.id())) {
      if (r.session().equals(session) && r.revealed()) {
        revealed.put(r.id(), r);
        basis.append(r.id()).append(',');
      }
    }
    List<Member> members = store.members(room.id());
    basis.append('|');
    for (Member m : members) basis.append(m.learnerId()).append(',');
    Counted counted = byClass.get(room.id());
    if (counted != null && counted.basis().contentEquals(basis)) return counted.scores();

    Map<String, Integer> points = new HashMap<>();
    if (!revealed.isEmpty()) {
      for (ClassStore.MemberEvent e : store.events(room.id(), LiveBank.ANSWER_TYPE)) {
        Round round = revealed.get(e.event().data().path("round").asText());
        if (round == null) continue;
        int earned = round.points(e.event().result().path("correct").asBoolean(), e.event().recordedAt());
        points.merge(e.learnerId(), earned, Integer::sum);
      }
    }
    Scores scores = new Scores(!revealed.isEmpty(), points);
    if (byClass.size() >= MAX_CLASSES) byClass.clear();
    byClass.put(room.id(), new Counted(basis.toString(), scores));
    return scores;
  }
}
