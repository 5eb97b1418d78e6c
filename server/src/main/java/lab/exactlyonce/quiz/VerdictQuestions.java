package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.sandbox.engine.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * "Which verdict does the checker report?" questions about the fix-the-sink exercises. Each exercise's starter is
 * run through its own checker in the sandbox ({@link StarterChecks}); the right option is the first verdict of the
 * first scenario it failed, the wrong ones are the other starters' such verdicts that this starter never got, and
 * {@link #ALL_PASS}. Nothing is hand-written. The failures are kept in the {@link RunCache}, by the starter and
 * its checker, so each version of them runs once. An exercise gets no question when no other exercise of its
 * lesson gives it a wrong option.
 */
final class VerdictQuestions {
  static final String ALL_PASS = "every scenario passes";
  static final String VARIANT = "verdict";

  private final StarterChecks checks;
  private final RunCache cache;

  VerdictQuestions(StarterChecks checks, RunCache cache) {
    this.checks = checks;
    this.cache = cache;
  }

  /** The ids of the lesson's exercises, each of which needs a topic for its verdict question. */
  List<String> exercises(String lesson) {
    return checks.starters(lesson).stream().map(StarterChecks.Starter::id).toList();
  }

  /** The question about an exercise: {@code <lesson>/<exercise>/verdict}. */
  static String id(String lesson, String exercise) {
    return lesson + "/" + exercise + "/" + VARIANT;
  }

  /**
   * Checks the lesson's starters one after another (the sandbox caps runs per client), then builds questions.
   *
   * @param written wrong options in each exercise's own terms, by exercise id, from the lesson's written bank
   * @param topics the title of each exercise's lesson topic, by exercise id, from the lesson's written bank
   */
  CompletableFuture<List<Question>> questions(Lesson lesson, Map<String, List<String>> written, Map<String, String> topics) {
    List<StarterChecks.Starter> starters = checks.starters(lesson.id());
    if (starters.size() < 2 && written.isEmpty()) return CompletableFuture.completedFuture(List.of()); // no wrong option
    CompletableFuture<Map<StarterChecks.Starter, List<StarterChecks.Failure>>> found =
        CompletableFuture.completedFuture(new LinkedHashMap<>());
    for (StarterChecks.Starter starter : starters) {
      found = found.thenCompose(done -> failures(starter).thenApply(failures -> {
        failures.ifPresent(f -> done.put(starter, f));
        return done;
      }));
    }
    return found.thenApply(done -> build(lesson, done, written, topics));
  }

  /** The scenarios the starter failed, as its checker reported them; empty when the check did not run OK. */
  private CompletableFuture<Optional<List<StarterChecks.Failure>>> failures(StarterChecks.Starter starter) {
    return cache.text("the starter of exercise '" + starter.id() + "'", starter.source() + "\n" + starter.checker(),
            () -> checks.check(QuestionBank.SANDBOX_CLIENT, starter).thenApply(report -> new RunCache.Ran(report.status(),
                report.status() == Outcome.OK ? text(report.failures()) : report.problem())))
        .thenApply(text -> text.map(VerdictQuestions::failures));
  }

  static List<Question> build(Lesson lesson, Map<StarterChecks.Starter, List<StarterChecks.Failure>> found,
                              Map<String, List<String>> written, Map<String, String> topics) {
    Map<StarterChecks.Starter, StarterChecks.Failure> headlines = new LinkedHashMap<>();
    found.forEach((starter, failures) -> headline(failures).ifPresent(f -> headlines.put(starter, f)));
    List<Question> out = new ArrayList<>();
    headlines.forEach((starter, failure) -> {
      Set<String> reported = new LinkedHashSet<>();
      for (StarterChecks.Failure f : found.get(starter)) reported.addAll(f.verdicts());
      List<String> wrong = new ArrayList<>();
      if (written.containsKey(starter.id())) {
        // Wrong options about the exercise's own records, so its vocabulary does not single out the answer.
        for (String option : written.get(starter.id())) if (!reported.contains(option)) wrong.add(option);
      } else {
        headlines.values().forEach(other -> {
          if (!reported.contains(other.verdicts().get(0))) wrong.add(other.verdicts().get(0));
        });
      }
      wrong.add(ALL_PASS);
      if (wrong.size() < 2) return; // with one wrong option a guess scores a half

      String id = id(lesson.id(), starter.id());
      QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(id, failure.verdicts().get(0), wrong);
      String prompt = "“" + starter.title() + "”: the checker runs this starter code under many crash and retry scenarios. "
          + "Which of these does the checker report?";
      String explanation = "The checker reports it in the scenario “" + failure.scenario() + "”"
          + (failure.verdicts().size() > 1 ? ", with: " + String.join("; ", failure.verdicts().subList(1, failure.verdicts().size())) : "")
          + ". The exercise: " + starter.summary();
      out.add(new Question(id, lesson.id(), starter.id(), Question.Kind.PREDICT, topics.get(starter.id()), prompt, starter.source(),
          choice.options(), List.of(choice.answer()), explanation,
          "/lessons/" + lesson.id() + "#sandbox/exercise/" + starter.id()));
    });
    return out;
  }

  /** The first failed scenario that names a verdict. */
  private static Optional<StarterChecks.Failure> headline(List<StarterChecks.Failure> failures) {
    return failures.stream().filter(f -> !f.verdicts().isEmpty()).findFirst();
  }

  /** One line per failed scenario: its name and verdicts, tab-separated (the checker strips tabs from both). */
  static String text(List<StarterChecks.Failure> failures) {
    StringBuilder out = new StringBuilder();
    for (StarterChecks.Failure f : failures) {
      out.append(f.scenario());
      for (String verdict : f.verdicts()) out.append('\t').append(verdict);
      out.append('\n');
    }
    return out.toString();
  }

  static List<StarterChecks.Failure> failures(String text) {
    List<StarterChecks.Failure> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isEmpty()) continue;
      String[] parts = line.split("\t", -1);
      out.add(new StarterChecks.Failure(parts[0], Arrays.asList(parts).subList(1, parts.length)));
    }
    return out;
  }
}
