package lab.exactlyonce.classroom;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A live session's ranking of the students in it: only those present (online now) or who answered one of its
 * revealed questions are ranked, so classmates who joined once and left never pad the board. Equal points share a
 * place; within a place students are listed by nickname, never by who joined first.
 */
record Standings(List<Standing> ranked) {
  static final Standings EMPTY = new Standings(List.of());
  /** The places a podium shows. */
  static final int PODIUM_PLACES = 3;

  Standings {
    ranked = List.copyOf(ranked);
  }

  /**
   * @param points points per learner who answered a revealed question of the session
   * @param present learners online now (any not in {@code nicknames}, the current members, are ignored)
   * @param nicknames learner id to nickname, of the class's members now
   */
  static Standings rank(Map<String, Integer> points, Set<String> present, Map<String, String> nicknames) {
    Set<String> in = new HashSet<>(points.keySet());
    in.addAll(present);
    in.retainAll(nicknames.keySet());
    List<String> order = new ArrayList<>(in);
    order.sort(Comparator.<String>comparingInt(id -> -points.getOrDefault(id, 0))
        .thenComparing(id -> nicknames.get(id).toLowerCase(Locale.ROOT)).thenComparing(id -> id));
    List<Standing> ranked = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      String id = order.get(i);
      int mine = points.getOrDefault(id, 0);
      int place = i > 0 && ranked.get(i - 1).points() == mine ? ranked.get(i - 1).place() : i + 1;
      boolean tied = i > 0 && ranked.get(i - 1).points() == mine
          || i + 1 < order.size() && points.getOrDefault(order.get(i + 1), 0) == mine;
      ranked.add(new Standing(id, nicknames.get(id), mine, place, tied));
    }
    return new Standings(ranked);
  }

  boolean isEmpty() {
    return ranked.isEmpty();
  }

  int size() {
    return ranked.size();
  }

  Optional<Standing> of(String learnerId) {
    return ranked.stream().filter(s -> s.learnerId().equals(learnerId)).findFirst();
  }

  /** The first {@code n} lines (more places may follow). */
  List<Standing> top(int n) {
    return ranked.subList(0, Math.min(n, ranked.size()));
  }

  /** Everyone on the top three places: more than three students when some share one. */
  List<Standing> podium() {
    return ranked.stream().filter(s -> s.place() <= PODIUM_PLACES).toList();
  }
}
