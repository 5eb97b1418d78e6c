package lab.exactlyonce.quiz;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The quiz bank as the classroom sees it: the questions an instructor can push live (one right option: choice,
 * true/false, predict-the-output), with their answers. Read-only; the quiz feature stays the owner of questions.
 */
public final class LiveBank {
  /** The event type of an answer, to a live question as to a quiz session's. */
  public static final String ANSWER_TYPE = Quiz.ANSWER;

  private final QuestionBank bank;

  LiveBank(QuestionBank bank) {
    this.bank = bank;
  }

  /** A question with one right option. */
  public record LiveQuestion(String id, String lesson, String item, String kind, String topic, String prompt,
                             String detail, List<String> options, int answer, String explanation) {
    public LiveQuestion {
      options = List.copyOf(options);
      if (answer < 0 || answer >= options.size()) throw new IllegalArgumentException(id + ": answer out of range");
    }
  }

  /**
   * The lesson's pushable questions (predict-the-output ones once their runs are ready), topic by topic in the order
   * the lesson lists its topics, each topic's in bank order: the instructor's picker and "Next" follow the lesson.
   */
  public List<LiveQuestion> questions(String lessonId) {
    List<String> topics = bank.topics(lessonId);
    return bank.questions(lessonId).stream().filter(LiveBank::pushable)
        .sorted(Comparator.comparingInt(q -> topics.indexOf(q.topic())))
        .map(LiveBank::view).toList();
  }

  public Optional<LiveQuestion> find(String questionId) {
    return bank.find(questionId).filter(LiveBank::pushable).map(LiveBank::view);
  }

  private static boolean pushable(Question q) {
    return q.kind() == Question.Kind.CHOICE || q.kind() == Question.Kind.TRUE_FALSE || q.kind() == Question.Kind.PREDICT;
  }

  private static LiveQuestion view(Question q) {
    return new LiveQuestion(q.id(), q.lesson(), q.item(), q.kind().label, q.topic(), q.prompt(), q.detail(), q.options(),
        q.answer().get(0), q.explanation());
  }
}
