package lab.exactlyonce.classroom;

import lab.exactlyonce.quiz.LiveBank;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A class's live round as it stands: what the dashboard's live panel and the projector's both draw, derived once.
 *
 * @param round the round on screen, or null (then {@code question} is null and {@code counts} empty)
 * @param counts answers per option; the projector shows them only after the reveal unless told to show them live
 * @param left the time left to answer: empty without a limit, zero once it is up
 * @param present the students in the session now: online, or who answered this round
 */
record LiveNow(Room room, Round round, LiveBank.LiveQuestion question, int[] counts, Optional<Duration> left,
               int present, Classroom.Board board) {
  int answered() {
    return IntStream.of(counts).sum();
  }

  boolean timeUp() {
    return round != null && !round.revealed() && left.isPresent() && left.get().isZero();
  }

  /** A running countdown: a limit that has not run out on a round not yet revealed. */
  boolean counting() {
    return round != null && !round.revealed() && left.isPresent() && !left.get().isZero();
  }

  /** The session is over and has a podium to show. */
  boolean podium() {
    return round == null && board.ended() && !board.standings().isEmpty();
  }

  /** The panel's {@code data-state}: idle, podium, open, timeup or revealed. */
  String state() {
    if (round == null) return podium() ? "podium" : "idle";
    return round.revealed() ? "revealed" : timeUp() ? "timeup" : "open";
  }
}
