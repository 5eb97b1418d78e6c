package lab.exactlyonce.lesson;

/** A lesson file that cannot be used; the message is one line naming the file, the field and the problem. */
public final class LessonFormatException extends RuntimeException {
  public LessonFormatException(String message) {
    super(message);
  }
}
