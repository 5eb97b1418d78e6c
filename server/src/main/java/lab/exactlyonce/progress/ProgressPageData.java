package lab.exactlyonce.progress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import lab.exactlyonce.lesson.Lesson;
import lab.exactlyonce.lesson.TabViews;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names {@code web/js/progress-state.js} shares with the server, put on the lesson page so that the script never
 * re-declares them: {@code data-rating-labels} (the self-rating labels, 1 to 4) and {@code data-progress-kinds}
 * (each study-progress event type a client records, to the kind of item it marks done; see {@link LessonItems}).
 */
public final class ProgressPageData implements TabViews.PageData {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, String> attributes;

  public ProgressPageData() {
    var attributes = new LinkedHashMap<String, String>();
    attributes.put("data-rating-labels", json(ProgressKinds.RATING_LABELS));
    attributes.put("data-progress-kinds", json(LessonItems.DONE_BY));
    this.attributes = Map.copyOf(attributes);
  }

  /** The same names on every lesson's page. */
  @Override
  public Map<String, String> attributes(Lesson lesson) {
    return attributes;
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of names is always JSON", e);
    }
  }
}
