package lab.exactlyonce.snippet;

import java.util.List;
import java.util.Optional;

/**
 * A runnable demonstration from {@code snippets/<lesson>/<Name>.java}.
 *
 * @param id from the {@code // Id:} header, such as {@code sink-demo}; unique over all lessons and never renamed
 * @param source the file without its header lines: what the learner sees, edits and runs
 * @param expectedOutput exactly what a correct run prints: the {@code Expect:} lines, each ending in a newline
 * @param explanation shown after a run whose output matches
 * @param knobs the parameters a learner may turn in the replay lab, in header order
 */
public record Snippet(String id, String lesson, String title, String summary, String source, String expectedOutput,
                      String explanation, List<Knob> knobs) {
  public Snippet {
    if (id == null || !id.matches("[a-z0-9]+(-[a-z0-9]+)*")) throw new IllegalArgumentException("bad snippet id " + id);
    if (title == null || title.isBlank()) throw new IllegalArgumentException("snippet " + id + " needs a title");
    if (expectedOutput == null || expectedOutput.isEmpty()) {
      throw new IllegalArgumentException("snippet " + id + " needs an expected output");
    }
    summary = summary == null ? "" : summary;
    explanation = explanation == null ? "" : explanation;
    knobs = knobs == null ? List.of() : List.copyOf(knobs);
  }

  public Snippet(String id, String lesson, String title, String summary, String source, String expectedOutput,
                 String explanation) {
    this(id, lesson, title, summary, source, expectedOutput, explanation, List.of());
  }

  public Optional<Knob> knob(String name) {
    return knobs.stream().filter(k -> k.name().equals(name)).findFirst();
  }
}
