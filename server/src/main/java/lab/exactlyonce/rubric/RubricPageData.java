package lab.exactlyonce.rubric;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.TabViews;

import java.util.Map;

/**
 * Tells {@code web/js/answer-box.js} which questions of the lesson page take a typed answer: {@code data-rubrics}, the
 * ids of the questions with a rubric (never the rubric itself), and {@code data-rubric-max-chars}, the answer's limit.
 */
public final class RubricPageData implements TabViews.PageData {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final RubricCatalog rubrics;

  public RubricPageData(RubricCatalog rubrics) {
    this.rubrics = rubrics;
  }

  @Override
  public Map<String, String> attributes(Lesson lesson) {
    try {
      return Map.of("data-rubrics", JSON.writeValueAsString(rubrics.questions(lesson.id())),
          "data-rubric-max-chars", String.valueOf(AnswerScorer.MAX_ANSWER_CHARS));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of ids is always JSON", e);
    }
  }
}
