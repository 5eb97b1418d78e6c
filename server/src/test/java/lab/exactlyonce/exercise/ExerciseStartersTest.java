package lab.exactlyonce.exercise;

import lab.exactlyonce.quiz.StarterChecks;
import lab.exactlyonce.sandbox.CodeRunner;
import lab.exactlyonce.sandbox.RunRequest;
import lab.exactlyonce.sandbox.engine.CheckReport;
import lab.exactlyonce.sandbox.engine.CheckSpec;
import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The quiz's verdict questions get each starter checked exactly as a learner's code is, through a fake sandbox. */
class ExerciseStartersTest {
  private static final String PROVIDED = "public interface Sink { void write(String key); }";
  private static final String CHECKER = "public class Checker { public static void check(Check check) {} }";

  /** Answers every request with one result and keeps what it was asked. */
  private static final class FakeSandbox implements CodeRunner {
    final List<RunRequest> requests = new ArrayList<>();
    final RunResult answer;

    FakeSandbox(RunResult answer) {
      this.answer = answer;
    }

    @Override
    public CompletableFuture<RunResult> submit(RunRequest request) {
      requests.add(request);
      return CompletableFuture.completedFuture(answer);
    }

    @Override
    public SandboxLimits limits() {
      return SandboxLimits.defaults();
    }
  }

  @TempDir
  Path snippets;

  private ExerciseCatalog catalog() throws IOException {
    Path dir = Files.createDirectories(snippets.resolve("a-lesson/exercises"));
    Files.writeString(dir.resolve("FixIt.java"), "// Id: fix-it\n// Title: Fix it\n// Summary: Make it right.\nclass MySink implements Sink {}\n");
    Files.writeString(dir.resolve("FixIt.provided"), PROVIDED);
    Files.writeString(dir.resolve("FixIt.harness"), CHECKER);
    Files.writeString(dir.resolve("FixIt.solution"), "class MySink implements Sink { public void write(String key) {} }\n");
    Files.writeString(dir.resolve("FixIt.md"), "The job calls `write(key)` once per record.\n");
    Files.writeString(dir.resolve("FixIt.hints.yaml"),
        "- {verdict: \"lost *\", reader: \"a row went\", hint: \"Keep it.\"}\n");
    return ExerciseCatalog.load(snippets);
  }

  private static RunResult checked(ScenarioVerdict... scenarios) {
    return new RunResult(Outcome.OK, "", "", List.of(), 3, List.of(), new CheckReport(List.of(scenarios)));
  }

  @Test
  void a_starter_is_checked_as_the_callers_client_with_its_exercises_checker() throws IOException {
    FakeSandbox sandbox = new FakeSandbox(checked(new ScenarioVerdict("no crash", true, List.of())));
    ExerciseStarters starters = new ExerciseStarters(catalog(), sandbox);
    StarterChecks.Starter starter = starters.starters("a-lesson").get(0);

    starters.check("quiz-bank", starter).join();

    assertEquals(List.of(new RunRequest("quiz-bank", "class MySink implements Sink {}\n",
        Optional.of(new CheckSpec(PROVIDED, CHECKER)))), sandbox.requests);
  }

  @Test
  void the_report_names_the_failed_scenarios_in_the_checkers_order() throws IOException {
    FakeSandbox sandbox = new FakeSandbox(checked(
        new ScenarioVerdict("crash after o2", false, List.of("record o1 written twice")),
        new ScenarioVerdict("no crash", true, List.of()),
        new ScenarioVerdict("crash after o1", false, List.of("record o1 lost", "transaction left open"))));
    ExerciseStarters starters = new ExerciseStarters(catalog(), sandbox);

    StarterChecks.Report report = starters.check("quiz-bank", starters.starters("a-lesson").get(0)).join();

    assertEquals(new StarterChecks.Report(Outcome.OK, List.of(
        new StarterChecks.Failure("crash after o2", List.of("record o1 written twice")),
        new StarterChecks.Failure("crash after o1", List.of("record o1 lost", "transaction left open"))), ""), report);
  }

  @Test
  void a_check_that_reported_no_scenario_is_the_exercises_fault_not_a_verdict() throws IOException {
    ExerciseStarters starters = new ExerciseStarters(catalog(), new FakeSandbox(checked()));

    StarterChecks.Report report = starters.check("quiz-bank", starters.starters("a-lesson").get(0)).join();

    assertEquals(Outcome.INTERNAL_ERROR, report.status());
    assertEquals(List.of(), report.failures());
  }
}
