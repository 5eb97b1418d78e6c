package lab.exactlyonce.classroom;

import java.time.Instant;

/** One question pushed to a class in a live session; {@code revealedAt} is set when its answer was shown. */
record Round(String id, String classId, String session, String questionId, Instant pushedAt, Instant revealedAt) {
  boolean revealed() {
    return revealedAt != null;
  }
}
