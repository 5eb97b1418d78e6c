package lab.exactlyonce.exercise;

/**
 * A fix-the-sink exercise from {@code snippets/<lesson>/exercises/<Name>.java} (the starter the learner completes)
 * and {@code <Name>.harness} (the trusted checker the server appends; the learner never edits it).
 *
 * @param id the file name in kebab case ({@code ExactlyOnceAppend.java} is {@code exactly-once-append})
 * @param description the {@code // Summary:} lines joined
 * @param source the starter without its header lines
 * @param solution a reference solution: what the learner may compare with once they have checked their own attempt
 */
record Exercise(String id, String lesson, String title, String description, String source, String harness,
                String solution) {
  Exercise {
    if (id == null || !id.matches("[a-z0-9]+(-[a-z0-9]+)*")) throw new IllegalArgumentException("bad exercise id " + id);
    if (title == null || title.isBlank()) throw new IllegalArgumentException("exercise " + id + " needs a title");
    if (harness == null || !harness.contains(Verdicts.NONCE_PLACEHOLDER)) {
      throw new IllegalArgumentException("exercise " + id + " needs a harness that prints its verdicts");
    }
    if (solution == null || solution.isBlank()) throw new IllegalArgumentException("exercise " + id + " needs a reference solution");
  }
}
