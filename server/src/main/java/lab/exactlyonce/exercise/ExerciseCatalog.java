package lab.exactlyonce.exercise;

import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.snippet.ContentFile;
import lab.exactlyonce.snippet.ContentHeader;
import lab.exactlyonce.snippet.ContentIds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fix-the-sink exercises of every lesson: {@code snippets/<lesson>/exercises/<Name>.java} with a header of
 * {@code // Id:}, {@code // Title:} and {@code // Summary:} lines (read by {@link ContentHeader}), and beside it what
 * the exercise provides to the learner's code {@code <Name>.provided}, its checker {@code <Name>.harness}, its
 * reference solution {@code <Name>.solution} (the tests prove that the solution passes every scenario) and its
 * instructions {@code <Name>.md} (Markdown prose for the page, so the starter's comments stay short), and its known
 * failure reasons with a hint each {@code <Name>.hints.yaml} ({@link ExerciseHints}). Known-wrong
 * solutions sit in {@code exercises/wrong/<Name>/}, each naming the verdicts it must get; only the tests read them,
 * to prove the checker fails each one. A starter
 * without a title, provided code, a checker, a solution, instructions or hints, a missing id or an id used twice, stops
 * the start with one line naming the file.
 */
public final class ExerciseCatalog {
  private static final List<String> KEYS = List.of("Title", "Summary");
  private static final String HINTS = ".hints.yaml";

  private final Map<String, Exercise> byId;

  private ExerciseCatalog(Map<String, Exercise> byId) {
    this.byId = byId;
  }

  public static ExerciseCatalog load(Path snippetsRoot) {
    Map<String, Exercise> byId = new LinkedHashMap<>();
    var ids = new ContentIds("exercise");
    for (ContentFile file : ContentFile.list(snippetsRoot, "exercises")) {
      String shown = file.shown();
      Path provided = file.sibling(".provided");
      if (!Files.exists(provided)) {
        throw new LessonFormatException(shown + ": no provided code " + provided.getFileName() + " beside it");
      }
      Path harness = file.sibling(".harness");
      if (!Files.exists(harness)) throw new LessonFormatException(shown + ": no checker " + harness.getFileName() + " beside it");
      Path solution = file.sibling(".solution");
      if (!Files.exists(solution)) {
        throw new LessonFormatException(shown + ": no reference solution " + solution.getFileName() + " beside it");
      }
      Path instructions = file.sibling(".md");
      if (!Files.exists(instructions)) {
        throw new LessonFormatException(shown + ": no instructions " + instructions.getFileName() + " beside it");
      }
      Path hints = file.sibling(HINTS);
      if (!Files.exists(hints)) {
        throw new LessonFormatException(shown + ": no known failure reasons " + hints.getFileName() + " beside it");
      }
      ContentHeader header = ContentHeader.read(shown, file.read(), KEYS);
      ids.claim(file, header);
      byId.put(header.id(), exercise(shown, file.lesson(), header, file.readSibling(".provided"),
          file.readSibling(".harness"), file.readSibling(".solution"), file.readSibling(".md"),
          ExerciseHints.read(shown.replaceAll("\\.java$", HINTS), file.readSibling(HINTS))));
    }
    return new ExerciseCatalog(Map.copyOf(byId));
  }

  private static Exercise exercise(String shown, String lesson, ContentHeader header, String provided, String harness,
                                   String solution, String instructions, List<ExerciseHints.Hint> hints) {
    if (header.first("Title").isBlank()) throw new LessonFormatException(shown + ": missing '// Title:' header line");
    if (!harness.contains(Exercise.ENTRY)) {
      throw new LessonFormatException(shown + ": its checker has no method '" + Exercise.ENTRY + "...)' for the sandbox to call");
    }
    if (provided.isBlank()) throw new LessonFormatException(shown + ": its provided code is empty");
    if (instructions.isBlank()) throw new LessonFormatException(shown + ": its instructions are empty");
    return new Exercise(header.id(), lesson, header.first("Title"), header.joined("Summary"), instructions,
        header.body(), provided, harness, solution, hints);
  }

  List<Exercise> all() {
    return byId.values().stream().sorted(Comparator.comparing(Exercise::lesson).thenComparing(Exercise::id)).toList();
  }

  Optional<Exercise> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** The ids of a lesson's exercises, in page order (what its progress counts). */
  public List<String> idsIn(String lesson) {
    return all().stream().filter(e -> e.lesson().equals(lesson)).map(Exercise::id).toList();
  }
}
