package lab.exactlyonce.exercise;

import lab.exactlyonce.sandbox.engine.Outcome;
import lab.exactlyonce.sandbox.engine.RunResult;
import lab.exactlyonce.sandbox.engine.SandboxLimits;
import lab.exactlyonce.sandbox.engine.ScenarioVerdict;
import lab.exactlyonce.sandbox.engine.SnippetRunner;
import lab.exactlyonce.snippet.ContentFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Each exercise's checker tells right from wrong: its reference solution passes every scenario, and every known-wrong
 * solution in {@code snippets/<lesson>/exercises/wrong/<Name>/} fails with the verdicts its {@code // Fails:
 * <scenario> | <verdict>} lines name. The checks run in the engine itself, as a sandbox worker runs them.
 */
class KnownWrongSolutionsTest {
  private static final SnippetRunner RUNNER = new SnippetRunner();
  private static final String FAILS = "// Fails: ";
  private static final ExerciseCatalog CATALOG = ExerciseCatalog.load(Path.of("snippets"));

  /** Exercise id to the folder of its known-wrong solutions. */
  private static Map<String, Path> wrongFolders() {
    Map<String, Path> folders = new LinkedHashMap<>();
    for (ContentFile file : ContentFile.list(Path.of("snippets"), "exercises")) {
      String id = file.read().lines().filter(l -> l.startsWith("// Id: ")).findFirst().orElseThrow().substring(7);
      folders.put(id, file.path().resolveSibling("wrong").resolve(file.baseName()));
    }
    return folders;
  }

  static Stream<String> exercises() {
    return wrongFolders().keySet().stream();
  }

  static Stream<Arguments> wrongSolutions() {
    List<Arguments> out = new ArrayList<>();
    wrongFolders().forEach((id, folder) -> {
      try (Stream<Path> files = Files.list(folder)) {
        files.filter(f -> f.toString().endsWith(".java")).sorted()
            .forEach(f -> out.add(arguments(id, f.getFileName().toString(), f)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    return out.stream();
  }

  private static Map<String, List<String>> check(String exerciseId, String source) {
    Exercise exercise = CATALOG.find(exerciseId).orElseThrow();
    RunResult run = RUNNER.run(source, SandboxLimits.defaults(), exercise.checkSpec());
    assertEquals(Outcome.OK, run.status(), run.toString());
    Map<String, List<String>> verdicts = new LinkedHashMap<>();
    for (ScenarioVerdict s : run.check().scenarios()) {
      assertEquals(s.verdicts().isEmpty(), s.passed(), s.toString());
      assertTrue(verdicts.put(s.name(), s.verdicts()) == null, "one scenario per name: " + s.name());
    }
    return verdicts;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("exercises")
  void the_reference_solution_passes_and_at_least_three_known_wrong_ones_sit_beside_it(String id) throws IOException {
    Exercise exercise = CATALOG.find(id).orElseThrow();
    Map<String, List<String>> verdicts = check(id, exercise.solution());
    assertTrue(verdicts.size() >= 9, "many scenarios: " + verdicts.keySet());
    verdicts.forEach((scenario, found) -> assertEquals(List.of(), found, scenario));
    try (Stream<Path> files = Files.list(wrongFolders().get(id))) {
      assertTrue(files.filter(f -> f.toString().endsWith(".java")).count() >= 3, id);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("wrongSolutions")
  void a_known_wrong_solution_fails_with_the_verdicts_it_names(String id, String name, Path file) throws IOException {
    String source = Files.readString(file);
    List<String[]> expected = source.lines().filter(l -> l.startsWith(FAILS))
        .map(l -> l.substring(FAILS.length()).split(" \\| ", 2)).toList();
    assertFalse(expected.isEmpty(), name + " names no '" + FAILS + "<scenario> | <verdict>' line");
    Map<String, List<String>> verdicts = check(id, source);
    List<ExerciseHints.Hint> hints = CATALOG.find(id).orElseThrow().hints();
    for (String[] fails : expected) {
      assertTrue(verdicts.containsKey(fails[0]), "no scenario '" + fails[0] + "' among " + verdicts.keySet());
      assertTrue(verdicts.get(fails[0]).contains(fails[1]), fails[0] + ": " + verdicts.get(fails[0]));
      // a common mistake's verdict is a known failure reason, so a learner who makes it is offered a hint
      assertTrue(hints.stream().anyMatch(h -> h.matches(fails[1])), "no hint in " + id + "'s hints knows: " + fails[1]);
    }
  }
}
