package lab.exactlyonce.rubric;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonFile;
import lab.exactlyonce.lesson.LessonLoader;
import lab.exactlyonce.lesson.Section;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every lesson's rubrics, read at start-up from {@code lessons/<id>/rubrics.yaml} (a lesson may have none). A rubric
 * that names no ladder, interview or scenario question of its lesson, a second rubric for a question, a point
 * without phrases, two points with one id or label, a point made by one common word alone, a misconception that
 * voids no point of its rubric, or a point or misconception that the question's own text already makes stops the
 * start with one line naming the file, the line, the field and the problem, as a broken lesson does.
 */
public final class RubricCatalog {
  static final String FILE_NAME = "rubrics.yaml";

  /** One lesson's rubrics by question id, and each such question's prompt as the candidate reads it. */
  private record LessonRubrics(Map<String, CompiledRubric> byQuestion, Map<String, String> prompts) {}

  private final Map<String, LessonRubrics> byLesson;

  private RubricCatalog(Map<String, LessonRubrics> byLesson) {
    this.byLesson = byLesson;
  }

  /** @param root the lessons folder, holding one folder per lesson of {@code lessons} */
  public static RubricCatalog load(Path root, LessonCatalog lessons) {
    var loader = new LessonLoader();
    var byLesson = new HashMap<String, LessonRubrics>();
    for (Lesson lesson : lessons.all()) {
      Path path = root.resolve(lesson.id()).resolve(FILE_NAME);
      if (!Files.isRegularFile(path)) continue;
      LessonLoader.Parsed<RubricFile> parsed = loader.read(path, "lessons/" + lesson.id() + "/" + FILE_NAME, RubricFile.class);
      byLesson.put(lesson.id(), check(lesson, parsed.value(), parsed.file()));
    }
    return new RubricCatalog(Map.copyOf(byLesson));
  }

  private static LessonRubrics check(Lesson lesson, RubricFile rubrics, LessonFile file) {
    Map<String, String> prompts = prompts(lesson);
    var byQuestion = new LinkedHashMap<String, CompiledRubric>();
    var firstAt = new HashMap<String, String>();
    for (int r = 0; r < rubrics.rubrics().size(); r++) {
      Rubric rubric = rubrics.rubrics().get(r);
      String at = "rubrics[" + r + "]";
      String prompt = prompts.get(rubric.question());
      if (prompt == null) {
        throw file.problem(at + ".question", "no ladder, interview or scenario question '" + rubric.question()
            + "' in lesson '" + lesson.id() + "' (questions there: " + String.join(", ", prompts.keySet()) + ")");
      }
      String earlier = firstAt.putIfAbsent(rubric.question(), at);
      if (earlier != null) {
        throw file.problem(at + ".question", "question '" + rubric.question() + "' already has a rubric at " + earlier
            + " (line " + file.lineOf(earlier) + "); one rubric per question");
      }
      checkPoints(rubric, at, file);
      checkMisconceptions(rubric, at, file);
      CompiledRubric compiled = CompiledRubric.of(rubric);
      checkPrompt(compiled, rubric.question(), prompt, at, file);
      byQuestion.put(rubric.question(), compiled);
    }
    // An interview question that rephrases a ladder question asks for the same key points.
    for (Block.Question q : questions(lesson)) {
      CompiledRubric shared = q.rephrases() == null ? null : byQuestion.get(q.rephrases());
      if (shared == null || byQuestion.containsKey(q.id())) continue;
      checkPrompt(shared, q.id(), prompts.get(q.id()), firstAt.get(shared.rubric().question()), file);
      byQuestion.put(q.id(), shared.forQuestion(q.id()));
    }
    return new LessonRubrics(Collections.unmodifiableMap(byQuestion), prompts);
  }

  private static void checkPoints(Rubric rubric, String at, LessonFile file) {
    var labels = new HashMap<String, Integer>();
    var ids = new HashMap<String, Integer>();
    for (int p = 0; p < rubric.points().size(); p++) {
      Rubric.Point point = rubric.points().get(p);
      String here = at + ".points[" + p + "]";
      Integer twin = ids.putIfAbsent(point.id(), p);
      if (twin != null) {
        throw file.problem(here + ".id", "the id '" + point.id() + "' is already used by " + at + ".points[" + twin
            + "]; each key point needs its own id");
      }
      twin = labels.putIfAbsent(point.label().toLowerCase(Locale.ROOT), p);
      if (twin != null) {
        throw file.problem(here + ".label", "the label '" + point.label() + "' is already used by " + at
            + ".points[" + twin + "]; each key point needs its own label");
      }
      for (int f = 0; f < point.phrases().size(); f++) {
        String phrase = point.phrases().get(f);
        if (Phrase.of(phrase).stems().size() == 1 && !term(phrase)) {
          throw file.problem(here + ".phrases[" + f + "]", "the phrase '" + phrase + "' is one word (once words "
              + "such as 'the' or 'is' are left out), which would make the point '"
              + point.label() + "' alone, and every answer on the topic uses such words; give a phrase of two or "
              + "more words, or name what it must stand with under 'together'");
        }
      }
    }
  }

  /**
   * A single word that names one thing and nothing else may make a point alone: a code identifier or an acronym
   * ({@code foreachBatch}, {@code LSO}, {@code KIP-447}, {@code o3}), told apart by capitals inside it, a digit, or
   * a {@code _ . -} joining its parts.
   */
  private static boolean term(String phrase) {
    String p = phrase.strip();
    return p.chars().anyMatch(Character::isDigit) || p.matches(".*\\w[_.\\-]\\w.*")
        || p.substring(1).chars().anyMatch(Character::isUpperCase);
  }

  private static void checkMisconceptions(Rubric rubric, String at, LessonFile file) {
    List<String> points = rubric.points().stream().map(Rubric.Point::id).toList();
    var ids = new HashMap<String, Integer>();
    for (int m = 0; m < rubric.misconceptions().size(); m++) {
      Rubric.Misconception wrong = rubric.misconceptions().get(m);
      String here = at + ".misconceptions[" + m + "]";
      Integer twin = ids.putIfAbsent(wrong.id(), m);
      if (twin != null) {
        throw file.problem(here + ".id", "the id '" + wrong.id() + "' is already used by " + at + ".misconceptions["
            + twin + "]; each misconception needs its own id");
      }
      for (int v = 0; v < wrong.voids().size(); v++) {
        if (!points.contains(wrong.voids().get(v))) {
          throw file.problem(here + ".voids[" + v + "]", "no key point '" + wrong.voids().get(v) + "' in this rubric "
              + "(its points: " + String.join(", ", points) + ")");
        }
      }
    }
  }

  /** Pasting the question back must make no point and state no misconception. */
  private static void checkPrompt(CompiledRubric compiled, String question, String prompt, String at,
                                  LessonFile file) {
    Words words = Words.of(prompt);
    Map<Integer, Phrase.Span> made = compiled.made(words.meaningful());
    if (!made.isEmpty()) {
      int p = made.keySet().iterator().next();
      throw file.problem(at + ".points[" + p + "].phrases", "the text of question '" + question + "' already makes "
          + "the point '" + compiled.rubric().points().get(p).label() + "' (its words \""
          + words.quote(made.get(p).first(), made.get(p).last()) + "\"); a point must need words the candidate adds");
    }
    Map<Integer, Phrase.Span> stated = compiled.stated(words.meaningful());
    if (!stated.isEmpty()) {
      int m = stated.keySet().iterator().next();
      throw file.problem(at + ".misconceptions[" + m + "].phrases", "the text of question '" + question
          + "' already states the misconception '" + compiled.rubric().misconceptions().get(m).id()
          + "'; pasting the question back would be told so");
    }
  }

  private static List<Block.Question> questions(Lesson lesson) {
    return lesson.sections().stream().flatMap(s -> s.blocks().stream())
        .filter(b -> b instanceof Block.Questions).flatMap(b -> ((Block.Questions) b).items().stream()).toList();
  }

  /** Every question a rubric may be for, to what the candidate reads as its prompt, in page order. */
  private static Map<String, String> prompts(Lesson lesson) {
    var prompts = new LinkedHashMap<String, String>();
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Questions q) q.items().forEach(i -> prompts.put(i.id(), i.question()));
        if (block instanceof Block.Scenario s) {
          s.questions().forEach(i -> prompts.put(i.id(), s.prompt() + "\n" + i.area() + ": " + i.question()));
        }
      }
    }
    return prompts;
  }

  /** The longest typed answer a check takes. */
  public int maxAnswerChars() {
    return AnswerScorer.MAX_ANSWER_CHARS;
  }

  /** The ids of the questions of {@code lessonId} that have a rubric, in file order. */
  public List<String> questions(String lessonId) {
    LessonRubrics rubrics = byLesson.get(lessonId);
    return rubrics == null ? List.of() : List.copyOf(rubrics.byQuestion().keySet());
  }

  /** Scores an answer to one question, or empty when that question has no rubric. */
  Optional<AnswerScore> score(String lessonId, String question, String answer) {
    LessonRubrics rubrics = byLesson.get(lessonId);
    if (rubrics == null || !rubrics.byQuestion().containsKey(question)) return Optional.empty();
    return Optional.of(AnswerScorer.score(rubrics.byQuestion().get(question), rubrics.prompts().get(question), answer));
  }
}
