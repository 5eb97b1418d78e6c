package lab.exactlyonce.quiz;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Sessions by id. Kept in memory: a session is a short-lived plan; the answers are what is stored durably. */
final class QuizSessions {
  private final ConcurrentHashMap<String, QuizSession> byId = new ConcurrentHashMap<>();

  void add(QuizSession session) {
    byId.put(session.id(), session);
  }

  /** The session, if it exists and belongs to {@code learner}. */
  Optional<QuizSession> find(String id, String learner) {
    return Optional.ofNullable(byId.get(id)).filter(s -> s.learner().equals(learner));
  }
}
