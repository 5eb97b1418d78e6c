package lab.exactlyonce.snippet;

import lab.exactlyonce.lesson.LessonFormatException;

import java.util.HashMap;
import java.util.Map;

/** Checks that no two files of one kind claim the same {@code // Id:}, over all lessons. */
public final class ContentIds {
  private final String kind;
  private final Map<String, String> claimed = new HashMap<>();

  /** @param kind what the ids name in messages: {@code snippet}, {@code exercise} */
  public ContentIds(String kind) {
    this.kind = kind;
  }

  /** Claims the id of {@code header}, read from {@code file}; a second claim stops the start naming both files. */
  public void claim(ContentFile file, ContentHeader header) {
    String here = file.shown() + ":" + header.idLine();
    String earlier = claimed.putIfAbsent(header.id(), here);
    if (earlier != null) {
      throw new LessonFormatException(file.shown() + ": line " + header.idLine() + ": " + kind + " id '" + header.id()
          + "' is already used by " + earlier + "; " + kind + " ids must be unique over all lessons");
    }
  }
}
