package lab.exactlyonce.classroom;

import lab.exactlyonce.quiz.LiveBank;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The leaderboard's numbers, derived from the log each time: every node counts every node's answers alike. */
final class LiveScores {
  private LiveScores() {}

  /** Correct answers per learner in a live session's revealed rounds, best first. */
  static List<Map.Entry<String, Integer>> of(ClassStore store, Room room) {
    if (room.liveSession() == null) return List.of();
    Set<String> revealed = ConcurrentHashMap.newKeySet();
    for (Round r : store.rounds(room.id())) if (r.session().equals(room.liveSession()) && r.revealed()) revealed.add(r.id());
    Map<String, Integer> score = new LinkedHashMap<>();
    for (Member m : store.members(room.id())) score.put(m.learnerId(), 0);
    for (ClassStore.MemberEvent e : store.events(room.id(), room.lesson(), LiveBank.ANSWER_TYPE)) {
      if (!revealed.contains(e.event().data().path("round").asText())) continue;
      if (score.containsKey(e.learnerId()) && e.event().result().path("correct").asBoolean()) score.merge(e.learnerId(), 1, Integer::sum);
    }
    List<Map.Entry<String, Integer>> ranked = new ArrayList<>(score.entrySet());
    ranked.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
    return ranked;
  }
}
