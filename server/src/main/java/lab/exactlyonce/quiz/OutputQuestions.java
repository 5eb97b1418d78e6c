package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;

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
  private static final Pattern TITLE = Pattern.compile("(?m)^//\\s*Title:\\s*(.+)$");

  private final CodeRunner sandbox;
  private final RunCache cache;

  OutputQuestions(CodeRunner sandbox, RunCache cache) {
    this.sandbox = sandbox;
    this.cache = cache;
  }

  /** One finished run of a variant. */
  record Run(SnippetVariants.Variant variant, List<String> lines) {}

  /** Runs every variant, one after another (the sandbox's fair queue caps runs per client), then builds questions. */
  CompletableFuture<List<Question>> questions(Lesson lesson, Section section, Block.Snippet block, String source) {
    if (SnippetVariants.parameters(source).isEmpty()) return CompletableFuture.completedFuture(List.of()); // nothing to vary
    CompletableFuture<List<Run>> runs = CompletableFuture.completedFuture(new ArrayList<>());
    for (SnippetVariants.Variant variant : SnippetVariants.of(source)) {
      runs = runs.thenCompose(done -> output(variant.source()).thenApply(out -> {
        out.ifPresent(text -> done.add(new Run(variant, lines(text))));
        return done;
      }));
    }
    return runs.thenApply(finished -> build(lesson, section, block, source, finished));
  }

  /** What the source prints when it runs OK; empty (and logged) when it does not. */
  CompletableFuture<Optional<String>> output(String source) {
    return cache.text("a snippet variant", source, () -> sandbox.submit(RunRequest.run(QuestionBank.SANDBOX_CLIENT, source)).thenApply(result ->
        new RunCache.Ran(result.status(), result.status() == Outcome.OK ? result.stdout() : firstLine(result))));
  }

  static List<Question> build(Lesson lesson, Section section, Block.Snippet block, String source, List<Run> runs) {
    Map<String, Long> defaults = SnippetVariants.parameters(source);
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
        List<String> others = new ArrayList<>(values);
        QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, labelValue[1], others);
        StringBuilder declarations = new StringBuilder();
        run.variant().values().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .forEach(e -> declarations.append(e.getKey()).append(" = ").append(e.getValue()).append(";\n"));
        String prompt = "“" + title + "” runs with " + run.variant().describe(defaults) + ". What does line " + (line + 1)
            + (labelValue[0].isEmpty() ? "" : ", starting “" + labelValue[0] + "”,") + " print?";
        String explanation = "The sandbox ran the snippet with " + run.variant().describe(defaults)
            + " and it printed:\n" + String.join("\n", run.lines());
        out.add(new Question(id, lesson.id(), block.id(), Question.Kind.PREDICT, section.title(), prompt,
            declarations.toString().strip(), choice.options(), List.of(choice.answer()), explanation,
            "/lessons/" + lesson.id() + "#sandbox/" + block.snippet()));
      }
    }
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
