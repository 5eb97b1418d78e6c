package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.ScenarioVerdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a failed check leads with, before the full list of scenarios: the first scenario that failed (in the checker's
 * order, which goes from the earliest crash point to the latest) and what a reader saw there, the failed scenarios
 * grouped by reason, and one hint from the exercise's data. Most failures repeat one mistake at many crash points, so
 * the list alone reads as a wall of the same verdict.
 *
 * @param first the first failed scenario
 * @param reasons each reason with how many failed scenarios have it, in order of first appearance
 * @param failed how many scenarios failed
 * @param hint the hint of the first of the exercise's known reasons any failure has; null when none is known
 */
record CheckDigest(FirstFailure first, List<Reason> reasons, int failed, String hint) {
  CheckDigest {
    reasons = List.copyOf(reasons);
  }

  /** A failed scenario and each of its verdicts with what a reader saw ({@code reader} null when no hint knows it). */
  record FirstFailure(String scenario, List<Seen> seen) {
    FirstFailure {
      seen = List.copyOf(seen);
    }
  }

  record Seen(String reader, String verdict) {}

  /**
   * A reason some failed scenarios share.
   *
   * @param label what a reader saw, from the exercise's hints, or else the first verdict of the reason itself
   * @param example the first verdict of this reason, as the checker wrote it
   */
  record Reason(String label, int scenarios, String example) {}

  /** The digest of a check's scenarios; empty when none failed. */
  static Optional<CheckDigest> of(List<ExerciseHints.Hint> hints, List<ScenarioVerdict> scenarios) {
    List<ScenarioVerdict> failed = scenarios.stream().filter(s -> !s.passed()).toList();
    if (failed.isEmpty()) return Optional.empty();
    Map<String, String[]> byReason = new LinkedHashMap<>(); // reason key to {label, example}
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (ScenarioVerdict s : failed) {
      List<String> keys = new ArrayList<>();
      for (String verdict : s.verdicts()) {
        Optional<ExerciseHints.Hint> known = known(hints, verdict);
        // An unknown verdict groups with those that differ from it only in numbers (o3 and o4, offset 2 and 4).
        String key = known.map(h -> "hint:" + h.verdict()).orElse("verdict:" + verdict.replaceAll("\\d+", "#"));
        byReason.putIfAbsent(key, new String[] {known.map(ExerciseHints.Hint::reader).orElse(verdict), verdict});
        if (!keys.contains(key)) keys.add(key);
      }
      keys.forEach(k -> counts.merge(k, 1, Integer::sum));
    }
    List<Reason> reasons = byReason.entrySet().stream()
        .map(e -> new Reason(e.getValue()[0], counts.get(e.getKey()), e.getValue()[1])).toList();
    ScenarioVerdict head = failed.get(0);
    FirstFailure first = new FirstFailure(head.name(), head.verdicts().stream()
        .map(v -> new Seen(known(hints, v).map(ExerciseHints.Hint::reader).orElse(null), v)).toList());
    String hint = hints.stream()
        .filter(h -> failed.stream().anyMatch(s -> s.verdicts().stream().anyMatch(h::matches)))
        .map(ExerciseHints.Hint::hint).findFirst().orElse(null);
    return Optional.of(new CheckDigest(first, reasons, failed.size(), hint));
  }

  private static Optional<ExerciseHints.Hint> known(List<ExerciseHints.Hint> hints, String verdict) {
    return hints.stream().filter(h -> h.matches(verdict)).findFirst();
  }
}
