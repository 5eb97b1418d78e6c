package lab.exactlyonce.classroom;

import java.time.Instant;
import java.util.Objects;

/**
 * A class an instructor hosts (called a room in code: {@code class} is taken).
 *
 * @param liveSession the live question session running now, or null
 * @param currentRound the round on screen now, or null
 */
record Room(String id, String name, String lesson, String code, Instant createdAt, Instant closedAt, String liveSession,
            String currentRound, Leaderboard leaderboard) {
  static final int MAX_NAME = 80;

  Room {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(leaderboard, "leaderboard");
  }

  boolean closed() {
    return closedAt != null;
  }
}
