package lab.exactlyonce.quiz;

import lab.exactlyonce.lesson.Block;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonCatalog;
import lab.exactlyonce.lesson.LessonFormatException;
import lab.exactlyonce.lesson.Section;
import lab.exactlyonce.lesson.Tab;
import lab.exactlyonce.snippet.Knob;
import lab.exactlyonce.snippet.SnippetIds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every lesson's questions: those generated from the lesson data and its recorded real runs ({@link RecordedRuns})
 * at once, and the ones built from sandbox runs (predict-the-output from snippet variants, {@link VerdictQuestions}
 * from exercise starters) as soon as their runs finish, started on a lesson's first quiz request, so lessons nobody
 * quizzes cost nothing.
 */
final class QuestionBank {
  /** The quiz's own runs (snippet variants, exercise starters) share one turn in the sandbox's fair queue. */
  static final String SANDBOX_CLIENT = "quiz-bank";

  private final LessonCatalog catalog;
  private final Path snippetsRoot;
  private final Function<String, List<Knob>> knobs;
  private final OutputQuestions outputs;
  private final VerdictQuestions verdicts;
  private final Map<String, List<Question>> generated = new ConcurrentHashMap<>();
  private final Map<String, WrittenQuestions> written = new ConcurrentHashMap<>();
  private final Map<String, LessonItems> items = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<List<Question>>> predicted = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> exerciseTopics = new ConcurrentHashMap<>();

  /**
   * Reads each lesson's written bank ({@link WrittenQuestions}) and recorded real runs, and generates the rest; a
   * lesson with a written bank gets no generated true/false, table or card questions, which its written ones replace.
   *
   * @throws lab.exactlyonce.lesson.LessonFormatException when a written bank or the recorded runs are wrong: the
   *     server does not start
   */
  QuestionBank(LessonCatalog catalog, Path lessonsRoot, Path snippetsRoot, Function<String, List<Knob>> knobs,
               OutputQuestions outputs, VerdictQuestions verdicts) {
    this.catalog = catalog;
    this.knobs = knobs;
    this.snippetsRoot = snippetsRoot;
    this.outputs = outputs;
    this.verdicts = verdicts;
    QuestionGenerator generator = new QuestionGenerator();
    for (Lesson lesson : catalog.all()) {
      boolean hasBank = Files.isRegularFile(lessonsRoot.resolve(lesson.id()).resolve(WrittenQuestions.FILE_NAME));
      List<Question> made = generator.generate(lesson, !hasBank);
      Set<String> taken = new HashSet<>();
      made.forEach(q -> taken.add(q.id()));
      WrittenQuestions bank = WrittenQuestions.load(lessonsRoot, lesson, taken);
      Set<String> snippets = SnippetIds.in(snippetsRoot, lesson.id()).keySet();
      for (String snippet : bank.predictRules().keySet()) {
        if (!snippets.contains(snippet)) {
          throw new LessonFormatException("lessons/" + lesson.id() + "/" + WrittenQuestions.FILE_NAME + ": predict: no snippet '"
              + snippet + "' in snippets/" + lesson.id() + "/");
        }
      }
      exerciseTopics.put(lesson.id(), exerciseTopics(lesson, bank));
      List<Question> all = new ArrayList<>(bank.questions());
      all.addAll(made);
      all.addAll(RealRunQuestions.build(lesson, RecordedRuns.load(lessonsRoot, lesson, knobs, bank.predictRules()::get),
          bank.predictRules()::get, bank.messageOptions()::get));
      generated.put(lesson.id(), List.copyOf(all));
      written.put(lesson.id(), bank);
      items.put(lesson.id(), new LessonItems(lesson));
    }
  }

  /**
   * The topic of each exercise's verdict question: its {@code verdicts} entry's, otherwise the topic of the first
   * section of the Sandbox tab, where the exercises are shown.
   *
   * @throws LessonFormatException when an exercise has neither
   */
  private Map<String, String> exerciseTopics(Lesson lesson, WrittenQuestions bank) {
    Optional<String> sandbox = lesson.sectionsOn(Tab.SANDBOX).stream().findFirst()
        .map(section -> lesson.topicOf(section, null).title());
    Map<String, String> topics = new LinkedHashMap<>();
    for (String exercise : verdicts.exercises(lesson.id())) {
      String topic = bank.verdictTopics().get(exercise);
      if (topic == null) {
        topic = sandbox.orElseThrow(() -> new LessonFormatException("lessons/" + lesson.id() + "/"
            + WrittenQuestions.FILE_NAME + ": verdicts: exercise '" + exercise + "' needs an entry with its 'topic' (the"
            + " lesson has no Sandbox section whose topic it could take)"));
      }
      topics.put(exercise, topic);
    }
    return Map.copyOf(topics);
  }

  /**
   * What a question asks about, for keeping near-duplicates out of one quiz: questions about the same lesson item
   * (or about a ladder rung and the interview question that rephrases it) are one idea; see {@link Question#idea}.
   */
  String idea(Question q) {
    LessonItems lessonItems = items.get(q.lesson());
    return q.idea(lessonItems == null ? item -> item : lessonItems::idea);
  }

  Lesson lesson(String id) {
    return catalog.require(id);
  }

  List<Lesson> lessons() {
    return catalog.all();
  }

  /** A lesson id's quiz scope, or every lesson's for {@link QuizScope#ALL}; an unknown lesson is a 404 naming them. */
  QuizScope scope(String id) {
    if (QuizScope.ALL.equals(id)) {
      return new QuizScope(QuizScope.ALL, "All lessons", catalog.all().stream().map(Lesson::id).toList());
    }
    Lesson lesson = catalog.require(id);
    return new QuizScope(lesson.id(), lesson.title(), List.of(lesson.id()));
  }

  /**
   * The questions of a lesson, or of every lesson ({@link QuizScope#ALL}), now: per lesson, generated ones first,
   * then the ones built from sandbox runs once all are ready.
   */
  List<Question> questions(String scopeId) {
    List<Question> all = new ArrayList<>();
    for (String id : scope(scopeId).lessons()) {
      all.addAll(generated.get(id));
      CompletableFuture<List<Question>> runs = predictions(catalog.require(id));
      if (runs.isDone() && !runs.isCompletedExceptionally()) all.addAll(runs.join());
    }
    return all;
  }

  /** The questions written for the scope's lessons and those generated from their text: all but the ones built from runs. */
  List<Question> fromText(String scopeId) {
    List<Question> all = new ArrayList<>();
    for (String id : scope(scopeId).lessons()) all.addAll(generated.get(id));
    return all;
  }

  /** Whether the questions built from sandbox runs are ready in every lesson of the scope (starting their runs). */
  boolean predictionsReady(String scopeId) {
    return scope(scopeId).lessons().stream().allMatch(id -> predictions(catalog.require(id)).isDone());
  }

  /** Completes when the lesson's questions built from sandbox runs (predict-the-output, exercise verdicts) are ready. */
  CompletableFuture<List<Question>> predictions(Lesson lesson) {
    return predicted.computeIfAbsent(lesson.id(), id -> startRuns(lesson));
  }

  Optional<Question> find(String questionId) {
    int slash = questionId.indexOf('/');
    if (slash < 0) return Optional.empty();
    Optional<Lesson> lesson = catalog.find(questionId.substring(0, slash));
    if (lesson.isEmpty()) return Optional.empty();
    return questions(lesson.get().id()).stream().filter(q -> q.id().equals(questionId)).findFirst();
  }

  /**
   * The scope's topic vocabulary: the titles each lesson's {@code topics} lists, lesson by lesson. Questions come
   * only in these topics, so the list has no topic without questions and no topic a question invents.
   */
  List<String> topics(String scopeId) {
    Set<String> titles = new LinkedHashSet<>();
    for (Lesson lesson : lessonsOf(scopeId)) lesson.topics().forEach(t -> titles.add(t.title()));
    return List.copyOf(titles);
  }

  /** The lessons of a scope: one, or every lesson for {@link QuizScope#ALL}. */
  List<Lesson> lessonsOf(String scopeId) {
    return scope(scopeId).lessons().stream().map(catalog::require).toList();
  }

  private CompletableFuture<List<Question>> startRuns(Lesson lesson) {
    Map<String, Path> files = SnippetIds.in(snippetsRoot, lesson.id());
    List<CompletableFuture<List<Question>>> parts = new ArrayList<>();
    for (Section section : lesson.sections()) {
      for (Block block : section.blocks()) {
        if (block instanceof Block.Snippet snippet && files.containsKey(snippet.snippet())) {
          parts.add(outputs.questions(lesson, section, snippet, read(files.get(snippet.snippet())),
              knobs.apply(snippet.snippet()),
              written.get(lesson.id()).predictRules().get(snippet.snippet())));
        }
      }
    }
    parts.add(verdicts.questions(lesson, written.get(lesson.id()).verdictOptions(), exerciseTopics.get(lesson.id())));
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(done -> {
      List<Question> all = new ArrayList<>();
      for (var part : parts) all.addAll(part.join());
      return List.copyOf(all);
    });
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
