package lab.exactlyonce.classroom;

import java.time.Instant;

/** A student in a class; {@code removedAt} is set when the instructor removed them. */
record Member(String classId, String learnerId, String nickname, Instant joinedAt, Instant removedAt) {
  boolean removed() {
    return removedAt != null;
  }
}
