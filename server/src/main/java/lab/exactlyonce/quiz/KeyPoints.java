package lab.exactlyonce.quiz;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Which self-graded questions of a lesson can check a typed answer against the key points of their model answer,
 * and how long such an answer may be. The rubric feature answers (the quiz page then offers an answer box whose
 * check goes to that feature's endpoint); the quiz holds no rubric itself.
 *
 * @param questions      the lesson's question ids with key points, by lesson id
 * @param maxAnswerChars the longest answer the check takes
 */
public record KeyPoints(Function<String, Collection<String>> questions, int maxAnswerChars) {
  /** No question takes a typed answer. */
  public static final KeyPoints NONE = new KeyPoints(lesson -> List.of(), 0);
}
