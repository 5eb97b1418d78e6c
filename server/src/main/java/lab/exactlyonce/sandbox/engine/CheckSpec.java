package lab.exactlyonce.sandbox.engine;

/**
 * The trusted half of an exercise check, sent to the worker beside the learner's source: what the exercise provides
 * to the learner's code ({@code provided}: the interface the learner's class implements and the environment it
 * talks to, such as a table or a gateway) and the checker that drives the learner's class through its scenarios.
 * Each is compiled on its own, never together with the learner's source; the checker's classes are loaded where the
 * learner's classes cannot see them and the learner's classes cannot stand in for anything the checker names. The
 * checker is a class with {@code public static void check(Check check)}; it reports through that {@link Check}.
 */
public record CheckSpec(String provided, String checker) {
  public CheckSpec {
    if (provided == null || checker == null || checker.isBlank()) {
      throw new IllegalArgumentException("a check needs the provided code and a checker");
    }
  }

  /** The key of the compiled trusted half in a worker's cache. */
  String key() {
    return SourceHash.of(provided + "\u0000" + checker);
  }
}
