package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.CheckSpec;

import java.util.List;

/**
 * A fix-the-sink exercise from {@code snippets/<lesson>/exercises/<Name>.java} (the starter the learner completes),
 * {@code <Name>.provided} (what the exercise gives the learner's code: the interface the learner's class implements
 * and the environment it talks to), {@code <Name>.harness} (the trusted checker; the learner never edits it) and
 * {@code <Name>.md} (the instructions).
 * The server never joins them into one source: the sandbox compiles and loads each apart ({@link CheckSpec}).
 *
 * @param id from the {@code // Id:} header, such as {@code exactly-once-append}; never renamed
 * @param description the {@code // Summary:} lines joined
 * @param instructions Markdown: what the learner's class is given, what it is called with and what it must do
 * @param source the starter without its header lines
 * @param solution a reference solution: what the learner may compare with once they have checked their own attempt
 * @param hints its known failure reasons, in priority order ({@code <Name>.hints.yaml}, {@link ExerciseHints})
 */
record Exercise(String id, String lesson, String title, String description, String instructions, String source,
                String provided, String harness, String solution, List<ExerciseHints.Hint> hints) {
  Exercise {
    hints = List.copyOf(hints);
    if (id == null || !id.matches("[a-z0-9]+(-[a-z0-9]+)*")) throw new IllegalArgumentException("bad exercise id " + id);
    if (title == null || title.isBlank()) throw new IllegalArgumentException("exercise " + id + " needs a title");
    if (provided == null || provided.isBlank()) throw new IllegalArgumentException("exercise " + id + " needs its provided code");
    if (harness == null || !harness.contains(ENTRY)) {
      throw new IllegalArgumentException("exercise " + id + " needs a checker with " + ENTRY);
    }
    if (solution == null || solution.isBlank()) throw new IllegalArgumentException("exercise " + id + " needs a reference solution");
  }

  /** What a checker declares: the engine calls it with the check's handle. */
  static final String ENTRY = "public static void check(Check ";

  /** The trusted half of a check of this exercise. */
  CheckSpec checkSpec() {
    return new CheckSpec(provided, harness);
  }
}
