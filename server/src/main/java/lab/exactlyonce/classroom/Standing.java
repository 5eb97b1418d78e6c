package lab.exactlyonce.classroom;

/**
 * One student's line on a live session's board.
 *
 * @param place standard competition ranking: students with equal points share a place and the next place skips
 *     (1, 1, 3)
 * @param tied whether someone else has the same place
 */
record Standing(String learnerId, String nickname, int points, int place, boolean tied) {
  Standing {
    if (place < 1) throw new IllegalArgumentException("a place starts at 1, got " + place);
    if (points < 0) throw new IllegalArgumentException("points are never negative, got " + points);
  }
}
