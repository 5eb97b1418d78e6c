package lab.exactlyonce.sandbox;

/**
 * A runnable demonstration from {@code snippets/<lesson>/<Name>.java}.
 *
 * @param id the file name in kebab case ({@code SinkDemo.java} is {@code sink-demo}); unique over all lessons
 * @param source the file without its header lines: what the learner sees, edits and runs
 * @param expectedOutput exactly what a correct run prints: the {@code Expect:} lines, each ending in a newline
 * @param explanation shown after a run whose output matches
 */
public record Snippet(String id, String lesson, String title, String summary, String source, String expectedOutput,
                      String explanation) {
  public Snippet {
    if (id == null || !id.matches("[a-z0-9]+(-[a-z0-9]+)*")) throw new IllegalArgumentException("bad snippet id " + id);
    if (title == null || title.isBlank()) throw new IllegalArgumentException("snippet " + id + " needs a title");
    if (expectedOutput == null || expectedOutput.isEmpty()) {
      throw new IllegalArgumentException("snippet " + id + " needs an expected output");
    }
    summary = summary == null ? "" : summary;
    explanation = explanation == null ? "" : explanation;
  }
}
