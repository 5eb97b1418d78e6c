package lab.exactlyonce.exercise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads a checker's verdict block from a run's standard output. The checker prints, after it has called the
 * learner's code for the last time,
 * <pre>
 * &#64;&#64;verdicts NONCE
 * scenario TAB name TAB pass|fail [TAB verdict]...
 * &#64;&#64;end NONCE COUNT
 * </pre>
 * with a fresh random NONCE per check. Only the last block counts: anything the learner printed (even a copy of
 * the marker) comes before it, and the learner cannot see the nonce (a private constant of the checker).
 */
final class Verdicts {
  static final String NONCE_PLACEHOLDER = "__NONCE__";

  /** One scenario's outcome. */
  record Scenario(String name, boolean passed, List<String> verdicts) {
    Scenario {
      verdicts = List.copyOf(verdicts);
    }
  }

  /** The scenarios, and the learner's own output (what came before the block). */
  record Report(List<Scenario> scenarios, String learnerOutput) {
    Report {
      scenarios = List.copyOf(scenarios);
    }
  }

  private Verdicts() {
  }

  /** Empty when the output holds no complete block for this nonce. */
  static Optional<Report> read(String stdout, String nonce) {
    String start = "@@verdicts " + nonce + "\n";
    int at = stdout.lastIndexOf(start);
    if (at < 0) return Optional.empty();
    String[] lines = stdout.substring(at + start.length()).split("\n", -1);
    List<Scenario> scenarios = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith("@@end " + nonce + " ")) {
        String count = line.substring(("@@end " + nonce + " ").length()).strip();
        if (!count.equals(String.valueOf(scenarios.size()))) return Optional.empty();
        String before = stdout.substring(0, at);
        if (before.endsWith("\n\n")) before = before.substring(0, before.length() - 1);
        else if (before.equals("\n")) before = "";
        return Optional.of(new Report(scenarios, before));
      }
      String[] parts = line.split("\t", -1);
      if (parts.length < 3 || !parts[0].equals("scenario") || !(parts[2].equals("pass") || parts[2].equals("fail"))) {
        return Optional.empty();
      }
      List<String> verdicts = Arrays.asList(parts).subList(3, parts.length);
      boolean passed = parts[2].equals("pass") && verdicts.isEmpty();
      scenarios.add(new Scenario(parts[1], passed, verdicts));
    }
    return Optional.empty();
  }
}
