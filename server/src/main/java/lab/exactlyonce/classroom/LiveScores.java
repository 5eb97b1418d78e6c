package lab.exactlyonce.classroom;

import lab.exactlyonce.quiz.LiveBank;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leaderboard's numbers: correct answers per member in a live session's revealed rounds, counted from the log,
 * so every node counts every node's answers alike. They change only when a round is revealed or the members change,
 * so each node counts them once per such change, checked against what the database holds, instead of on every stream
 * that opens: a class's phones waking together each read the whole session's answers before, and a thousand students'
 * reconnects held every database connection while the answers of an open question waited for one.
 */
final class LiveScores {
  /** Counted classes kept at most; past it the counts start over (a cache: counting again is always right). */
  private static final int MAX_CLASSES = 256;

  private final ClassStore store;
  private final Map<String, Counted> byClass = new ConcurrentHashMap<>();

  /** @param basis the session, its revealed rounds and the members the count was made for */
  private record Counted(String basis, List<Map.Entry<String, Integer>> ranked) {}

  LiveScores(ClassStore store) {
    this.store = store;
  }

  /** Correct answers per learner in the room's live session's revealed rounds, best first. */
  List<Map.Entry<String, Integer>> of(Room room) {
    if (room.liveSession() == null) {
      byClass.remove(room.id());
      return List.of();
    }
    Set<String> revealed = new HashSet<>();
    StringBuilder basis = new StringBuilder(room.liveSession()).append('|');
    for (Round r : store.rounds(room.id())) {
      if (r.session().equals(room.liveSession()) && r.revealed()) {
        revealed.add(r.id());
        basis.append(r.id()).append(',');
      }
    }
    List<Member> members = store.members(room.id());
    basis.append('|');
    for (Member m : members) basis.append(m.learnerId()).append(',');
    Counted counted = byClass.get(room.id());
    if (counted != null && counted.basis().contentEquals(basis)) return counted.ranked();

    Map<String, Integer> score = new LinkedHashMap<>();
    for (Member m : members) score.put(m.learnerId(), 0);
    if (!revealed.isEmpty()) {
      for (ClassStore.MemberEvent e : store.events(room.id(), room.lesson(), LiveBank.ANSWER_TYPE)) {
        if (!revealed.contains(e.event().data().path("round").asText())) continue;
        if (score.containsKey(e.learnerId()) && e.event().result().path("correct").asBoolean()) score.merge(e.learnerId(), 1, Integer::sum);
      }
    }
    List<Map.Entry<String, Integer>> ranked = new ArrayList<>(score.entrySet());
    ranked.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
    List<Map.Entry<String, Integer>> kept = List.copyOf(ranked);
    if (byClass.size() >= MAX_CLASSES) byClass.clear();
    byClass.put(room.id(), new Counted(basis.toString(), kept));
    return kept;
  }
}
