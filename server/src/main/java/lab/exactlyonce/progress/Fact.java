package lab.exactlyonce.progress;

/**
 * Something a learner may record only once whatever event id they send it under, such as their answer to one
 * question of a quiz session. Its {@code key} is unique in the events table (the {@code fact} column), so two events
 * recording it cannot both be stored even when they race; {@code refusal} is the 409 message the later one gets.
 */
public record Fact(String key, String refusal) {
  /** The width of the {@code fact} column. */
  static final int MAX_KEY = 500;

  public Fact {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
      throw new IllegalArgumentException("a fact key is 1 to " + MAX_KEY + " characters, got " + (key == null ? "none" : key.length()));
    }
    if (refusal == null || refusal.isBlank()) throw new IllegalArgumentException("a fact needs the message its repeats get");
  }

  /** A learner's answer to one question of one of their quiz sessions. */
  public static Fact quizAnswer(String learner, String session, String question) {
    return new Fact("quiz.answer/" + learner + "/" + session + "/" + question,
        "question '" + question + "' was already answered in quiz session '" + session + "'; nothing was stored");
  }

  /** A student's answer to one live round of a class. */
  public static Fact liveAnswer(String round, String learner) {
    return new Fact("live.answer/" + round + "/" + learner, "you already answered this question; your first answer counts");
  }
}
