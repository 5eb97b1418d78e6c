package lab.exactlyonce.quiz;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.LessonFile;
import lab.exactlyonce.lesson.LessonFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lesson's written question bank, {@code lessons/<id>/questions.yaml}: questions whose wrong options are the
 * misconceptions a candidate holds, the rules each snippet's predict-the-output questions depend on, wrong options
 * for the exercise verdict questions, and wrong options for the questions about the broker's message in a recorded
 * real run. Read and checked at start, as the lesson is; a problem stops the server with one line naming the file,
 * the field and what is wrong. The format is in {@code lessons/SCHEMA.md}.
 *
 * @param verdictTopics the title of the lesson topic of each exercise's verdict question, by exercise id
 * @param messageOptions wrong options for the message question of a recorded run ({@code real-runs.yaml}), by run id
 */
record WrittenQuestions(List<Question> questions, Map<String, String> predictRules, Map<String, List<String>> verdictOptions,
                        Map<String, String> verdictTopics, Map<String, List<String>> messageOptions) {
  static final String FILE_NAME = "questions.yaml";
  static final WrittenQuestions NONE = new WrittenQuestions(List.of(), Map.of(), Map.of(), Map.of(), Map.of());
  private static final int MIN_WRONG = 2;
  private static final int MAX_WRONG = 3;

  WrittenQuestions {
    questions = List.copyOf(questions);
    predictRules = Map.copyOf(predictRules);
    verdictOptions = Map.copyOf(verdictOptions);
    verdictTopics = Map.copyOf(verdictTopics);
    messageOptions = Map.copyOf(messageOptions);
  }

  boolean isEmpty() {
    return questions.isEmpty() && predictRules.isEmpty() && verdictOptions.isEmpty() && messageOptions.isEmpty();
  }

  /** The file as written. */
  record File(List<Entry> questions, List<Rules> predict, List<Verdict> verdicts, List<RunMessages> realRunMessages) {}

  /** One question: {@code kind} is {@code choice} (prompt, right, wrong) or {@code true-false} (statement, answer). */
  record Entry(String id, String about, String topic, String kind, String prompt, String detail, String statement,
               Boolean answer, String right, List<String> wrong, String explanation) {}

  /** What a snippet's predict-the-output prompts state: the rules the printed values depend on. */
  record Rules(String snippet, String rules) {}

  /** The topic id of an exercise's verdict question, and wrong options for it in the exercise's own terms. */
  record Verdict(String exercise, String topic, List<String> wrong) {}

  /** Wrong options for the question about the broker's message in a recorded run: other messages of Kafka's. */
  record RunMessages(String run, List<String> wrong) {}

  private static final ObjectMapper YAML = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  /** The lesson's bank, or {@link #NONE} when its folder has no {@code questions.yaml}. */
  static WrittenQuestions load(Path lessonsRoot, Lesson lesson, Set<String> taken) {
    Path path = lessonsRoot.resolve(lesson.id()).resolve(FILE_NAME);
    if (!Files.isRegularFile(path)) return NONE;
    String name = "lessons/" + lesson.id() + "/" + FILE_NAME;
    File file;
    try {
      file = YAML.readValue(Files.readString(path), File.class);
    } catch (JsonMappingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new LessonFormatException(name + (line > 0 ? ":" + line : "") + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
    } catch (IOException e) {
      throw new LessonFormatException(name + ": cannot be read (" + e.getMessage() + ")");
    }
    return new Reader(name, lesson, taken).read(file == null ? new File(null, null, null, null) : file);
  }

  /** Turns the file into questions, refusing the first problem with the field it is in. */
  private record Reader(String name, Lesson lesson, Set<String> taken) {
    WrittenQuestions read(File file) {
      LessonItems items = new LessonItems(lesson);
      List<Question> out = new ArrayList<>();
      Set<String> ids = new HashSet<>();
      List<Entry> entries = file.questions() == null ? List.of() : file.questions();
      for (int i = 0; i < entries.size(); i++) {
        String at = "questions[" + i + "]";
        Entry e = entries.get(i);
        String id = required(e.id(), at + ".id");
        if (!Question.ID.matcher(lesson.id() + "/" + id).matches() || id.contains("/")) {
          throw problem(at + ".id", "must be letters, digits, '-' or '_', got '" + id + "'");
        }
        String qid = lesson.id() + "/" + id;
        if (!ids.add(qid) || taken.contains(qid)) throw problem(at + ".id", "question id '" + id + "' is already used");
        String about = required(e.about(), at + ".about");
        LessonItems.Item item = items.find(about)
            .orElseThrow(() -> problem(at + ".about", "no item '" + about + "' in lesson '" + lesson.id() + "'"));
        String topic = e.topic() == null ? item.topic() : topicTitle(e.topic().strip(), at + ".topic");
        String explanation = required(e.explanation(), at + ".explanation");
        String link = QuestionGenerator.link(lesson, item.tab(), about);
        String kind = required(e.kind(), at + ".kind");
        if (kind.equals("true-false")) {
          String statement = required(e.statement(), at + ".statement");
          if (e.answer() == null) throw problem(at + ".answer", "missing required field 'answer' (true or false)");
          if (e.prompt() != null || e.right() != null || e.wrong() != null) {
            throw problem(at, "a true-false question takes 'statement' and 'answer', not 'prompt', 'right' or 'wrong'");
          }
          out.add(new Question(qid, lesson.id(), about, Question.Kind.TRUE_FALSE, topic, statement,
              e.detail() == null ? "True or false?" : e.detail().strip(), List.of("True", "False"),
              List.of(e.answer() ? 0 : 1), explanation, link));
        } else if (kind.equals("choice")) {
          String prompt = required(e.prompt(), at + ".prompt");
          String right = required(e.right(), at + ".right");
          List<String> wrong = e.wrong() == null ? List.of() : e.wrong().stream().map(String::strip).toList();
          if (wrong.size() < MIN_WRONG || wrong.size() > MAX_WRONG) {
            throw problem(at + ".wrong", "needs " + MIN_WRONG + " to " + MAX_WRONG + " wrong options, got " + wrong.size());
          }
          Set<String> distinct = new HashSet<>(wrong);
          if (distinct.size() != wrong.size() || distinct.contains(right)) {
            throw problem(at + ".wrong", "the options must all differ from each other and from 'right'");
          }
          if (e.statement() != null || e.answer() != null) {
            throw problem(at, "a choice question takes 'prompt', 'right' and 'wrong', not 'statement' or 'answer'");
          }
          QuestionGenerator.Choice choice = QuestionGenerator.Choice.of(qid, right, wrong);
          out.add(new Question(qid, lesson.id(), about, Question.Kind.CHOICE, topic, prompt, e.detail(), choice.options(),
              List.of(choice.answer()), explanation, link));
        } else {
          throw problem(at + ".kind", "must be choice or true-false, got '" + kind + "'");
        }
      }
      Map<String, String> rules = new LinkedHashMap<>();
      List<Rules> predict = file.predict() == null ? List.of() : file.predict();
      for (int i = 0; i < predict.size(); i++) {
        String snippet = required(predict.get(i).snippet(), "predict[" + i + "].snippet");
        rules.put(snippet, required(predict.get(i).rules(), "predict[" + i + "].rules"));
      }
      Map<String, List<String>> verdicts = new LinkedHashMap<>();
      Map<String, String> verdictTopics = new LinkedHashMap<>();
      List<Verdict> given = file.verdicts() == null ? List.of() : file.verdicts();
      for (int i = 0; i < given.size(); i++) {
        String exercise = required(given.get(i).exercise(), "verdicts[" + i + "].exercise");
        String topic = required(given.get(i).topic(), "verdicts[" + i + "].topic");
        verdictTopics.put(exercise, topicTitle(topic, "verdicts[" + i + "].topic"));
        List<String> wrong = given.get(i).wrong() == null ? List.of() : given.get(i).wrong().stream().map(String::strip).toList();
        if (wrong.size() < MIN_WRONG) throw problem("verdicts[" + i + "].wrong", "needs at least " + MIN_WRONG + " wrong options");
        verdicts.put(exercise, wrong);
      }
      Map<String, List<String>> messages = new LinkedHashMap<>();
      List<RunMessages> runs = file.realRunMessages() == null ? List.of() : file.realRunMessages();
      for (int i = 0; i < runs.size(); i++) {
        String at = "realRunMessages[" + i + "]";
        String run = required(runs.get(i).run(), at + ".run");
        List<String> wrong = runs.get(i).wrong() == null ? List.of() : runs.get(i).wrong().stream().map(String::strip).toList();
        if (wrong.size() < MIN_WRONG || wrong.size() > MAX_WRONG) {
          throw problem(at + ".wrong", "needs " + MIN_WRONG + " to " + MAX_WRONG + " wrong options, got " + wrong.size());
        }
        if (new HashSet<>(wrong).size() != wrong.size()) throw problem(at + ".wrong", "the options must all differ");
        if (messages.put(run, wrong) != null) throw problem(at + ".run", "run '" + run + "' already has its wrong options");
      }
      return new WrittenQuestions(out, rules, verdicts, verdictTopics, messages);
    }

    private String required(String value, String field) {
      return LessonFile.required(value, field, this::problem);
    }

    /** The title of the lesson topic with this id; an unknown id names the ones there are. */
    private String topicTitle(String topicId, String field) {
      for (Lesson.Topic topic : lesson.topics()) if (topic.id().equals(topicId)) return topic.title();
      throw problem(field, "no topic '" + topicId + "' in lessons/" + lesson.id() + "/lesson.yaml; topics: "
          + String.join(", ", lesson.topics().stream().map(Lesson.Topic::id).toList()));
    }

    private LessonFormatException problem(String field, String message) {
      return new LessonFormatException(name + ": " + (field.isEmpty() ? "" : field + ": ") + message);
    }
  }
}
