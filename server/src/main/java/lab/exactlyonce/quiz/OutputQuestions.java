package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.snippet.Knob;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Predict-the-output questions. Each snippet is run with its parameters varied ({@link SnippetVariants}); the
 * answer to "what does this line print?" is what the run actually printed, and the wrong options are what the
 * other runs printed on the same line. Nothing is hand-written. Outputs are kept in the {@link RunCache}, so a
 * snippet runs once per version of its text.
 */
final class OutputQuestions {
  private static final int MIN_OPTIONS = 3;
  private static final Pattern TITLE = Pattern.compile("(?m)^//\\s*Title:\\s*(.+)$");

  private final CodeRunner sandbox;
  private final RunCache cache;

  OutputQuestions(CodeRunner sandbox, RunCache cache) {
    this.sandbox = sandbox;
    this.cache = cache;
  }

  /** One finished run of a variant. */
  record Run(SnippetVariants.Variant variant, List<String> lines) {}

  /**
   * Runs every variant, one after another (the sandbox's fair queue caps runs per client), then builds questions.
   *
   * @param knobs the snippet's knobs: variants stay inside their ranges
   * @param rules what the printed values depend on that the code alone does not make plain, stated in each prompt
   *              (null: nothing to state)
   */
  CompletableFuture<List<Question>> questions(Lesson lesson, Section section, Block.Snippet block, String source,
                                              List<Knob> knobs, String rules) {
    if (SnippetVariants.parameters(source, knobs).isEmpty()) return CompletableFuture.completedFuture(List.of()); // nothing to vary
    CompletableFuture<List<Run>> runs = CompletableFuture.completedFuture(new ArrayList<>());
    for (SnippetVariants.Variant variant : SnippetVariants.of(source, knobs)) {
      runs = runs.thenCompose(done -> output(variant.source()).thenApply(out -> {
        out.ifPresent(text -> done.add(new Run(variant, lines(text))));
        return done;
      }));
    }
    return runs.thenApply(finished -> build(lesson, section, block, source, knobs, rules, finished));
  }

  /** What the source prints when it runs OK; empty (and logged) when it does not. */
  CompletableFuture<Optional<String>> output(String source) {
    return cache.text("a snippet variant", source, () -> sandbox.submit(RunRequest.run(QuestionBank.SANDBOX_CLIENT, source)).thenApply(result ->
        new RunCache.Ran(result.status(), result.status() == Outcome.OK ? result.stdout() : firstLine(result))));
  }

  static List<Question> build(Lesson lesson, Section section, Block.Snippet block, String source, List<Knob> knobs,
                              String rules, List<Run> runs) {
    Map<String, Object> defaults = SnippetVariants.parameters(source, knobs);
    String title = title(source).orElse(block.snippet());
    int maxLines = runs.stream().mapToInt(r -> r.lines().size()).max().orElse(0);
    List<Question> out = new ArrayList<>();
    for (int line = 0; line < maxLines; line++) {
      LinkedHashSet<String> values = new LinkedHashSet<>();
      for (Run run : runs) if (line < run.lines().size()) values.add(split(run.lines().get(line))[1]);
      if (values.size() < 2) continue; // every run printed the same: nothing to predict
      for (Run run : runs) {
        if (line >= run.lines().size()) continue;
        String[] labelValue = split(run.lines().get(line));
        String id = lesson.id() + "/" + block.id() + "/" + run.variant().id() + "-line-" + (line + 1);
        List<String> others = withNeighbours(values);
        if (others.size() < MIN_OPTIONS) continue; // a guess would score a half: not a question
        QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, labelValue[1], others);
        StringBuilder declarations = new StringBuilder();
        run.variant().values().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .forEach(e -> declarations.append(e.getKey()).append(" = ").append(e.getValue()).append(";\n"));
        String prompt = "“" + title + "” runs with " + run.variant().describe(defaults) + ". "
            + (rules == null ? "" : rules.strip() + " ") + "What does line " + (line + 1)
            + (labelValue[0].isEmpty() ? "" : ", starting “" + labelValue[0] + "”,") + " print?";
        String explanation = "The sandbox ran the snippet with " + run.variant().describe(defaults)
            + " and it printed:\n" + String.join("\n", run.lines());
        out.add(new Question(id, lesson.id(), block.id(), Question.Kind.PREDICT, lesson.topicOf(section, null).title(), prompt,
            declarations.toString().strip(), choice.options(), List.of(choice.answer()), explanation,
            "/lessons/" + lesson.id() + "#sandbox/" + block.snippet()));
      }
    }
    return out;
  }

  /**
   * The values the runs printed, and when they are fewer than {@link #MIN_OPTIONS} and all whole numbers, the
   * nearest whole numbers no run printed, so a seen-set size of 1 or 3 is asked with 2 beside them.
   */
  static List<String> withNeighbours(LinkedHashSet<String> printed) {
    List<String> out = new ArrayList<>(printed);
    if (out.size() >= MIN_OPTIONS || !out.stream().allMatch(v -> v.matches("\\d{1,9}"))) return out;
    long low = out.stream().mapToLong(Long::parseLong).min().orElse(0);
    long high = out.stream().mapToLong(Long::parseLong).max().orElse(0);
    for (long v = low + 1; v < high && out.size() < MIN_OPTIONS; v++) if (!out.contains(String.valueOf(v))) out.add(String.valueOf(v));
    for (long v = high + 1; out.size() < MIN_OPTIONS; v++) out.add(String.valueOf(v));
    return out;
  }

  /** "AppendSink rows=7" to ["AppendSink", "rows=7"]; "read_committed : 4 records" splits at the first ": ". */
  static String[] split(String line) {
    int colon = line.indexOf(": ");
    if (colon > 0) return new String[] {line.substring(0, colon + 1).strip(), line.substring(colon + 2).strip()};
    int space = line.indexOf(' ');
    if (space > 0) return new String[] {line.substring(0, space), line.substring(space + 1).strip()};
    return new String[] {"", line};
  }

  static List<String> lines(String stdout) {
    List<String> out = new ArrayList<>();
    for (String line : stdout.split("\\R")) out.add(line.stripTrailing());
    while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) out.remove(out.size() - 1);
    return out;
  }

  static Optional<String> title(String source) {
    Matcher m = TITLE.matcher(source);
    return m.find() ? Optional.of(m.group(1).strip()) : Optional.empty();
  }

  private static String firstLine(RunResult result) {
    String text = !result.stderr().isBlank() ? result.stderr() : result.diagnostics().toString();
    return text.lines().findFirst().orElse("");
  }
}
