package lab.exactlyonce.quiz;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The FSRS-6 spaced-repetition scheduler (Free Spaced Repetition Scheduler, version 6: 21 parameters, trainable
 * forgetting-curve decay {@code w20}), written from the published formulas of the open-spaced-repetition reference
 * implementation py-fsrs (module {@code fsrs.scheduler}, release 6.x): its {@code DEFAULT_PARAMETERS}, desired retention
 * 0.9, learning steps 1 min and 10 min (the quiz uses one, see {@link #QUIZ_LEARNING_STEPS}), one relearning step of 10 min, maximum interval 36500 days. Fuzzing is off so
 * that a replay gives the same schedule every time.
 *
 * <p>A card's state is never stored: {@link #replay} derives it from the learner's ratings in time order. The
 * formulas, with {@code G} the rating 1..4 and {@code t} whole days since the last review:
 * <ul>
 *   <li>initial stability {@code S0(G) = w[G-1]}; initial difficulty {@code D0(G) = w4 - e^(w5 (G-1)) + 1}, clamped to [1, 10]</li>
 *   <li>retrievability {@code R = (1 + F t / S)^(-w20)} with {@code F = 0.9^(-1/w20) - 1}</li>
 *   <li>interval {@code I = S / F (r^(-1/w20) - 1)}, rounded, at least 1 day</li>
 *   <li>next difficulty: {@code D' = w7 D0(4) + (1 - w7) (D + (10 - D) (-w6 (G - 3)) / 9)}, clamped</li>
 *   <li>recall stability {@code S (1 + e^w8 (11 - D) S^-w9 (e^(w10 (1 - R)) - 1) h b)}, {@code h = w15} for Hard,
 *       {@code b = w16} for Easy</li>
 *   <li>forget stability {@code min(w11 D^-w12 ((S + 1)^w13 - 1) e^(w14 (1 - R)), S / e^(w17 w18))}</li>
 *   <li>same-day stability {@code S e^(w17 (G - 3 + w18)) S^-w19}, at least {@code S} for Good and Easy</li>
 * </ul>
 */
final class Fsrs {
  /** py-fsrs 6 {@code DEFAULT_PARAMETERS} (FSRS-6 defaults), w0..w20. */
  static final double[] DEFAULT_PARAMETERS = {
      0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
      1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542};
  static final double DESIRED_RETENTION = 0.9;
  static final List<Duration> LEARNING_STEPS = List.of(Duration.ofMinutes(1), Duration.ofMinutes(10));
  /**
   * The quiz's learning steps: one minute. A quiz answer tests recall rather than showing the item for the first
   * time, so a right answer leaves learning at once (Good on a new question: 2 days) and only a miss, or Hard,
   * comes back the same day.
   */
  static final List<Duration> QUIZ_LEARNING_STEPS = List.of(Duration.ofMinutes(1));
  static final List<Duration> RELEARNING_STEPS = List.of(Duration.ofMinutes(10));
  static final int MAXIMUM_INTERVAL_DAYS = 36500;
  private static final double STABILITY_MIN = 0.001;

  enum Rating {
    AGAIN, HARD, GOOD, EASY;

    int value() { return ordinal() + 1; }

    static Rating of(int value) {
      if (value < 1 || value > 4) throw new IllegalArgumentException("rating must be 1..4, got " + value);
      return values()[value - 1];
    }
  }

  enum State { LEARNING, REVIEW, RELEARNING }

  /** A card's memory state; {@code stability} and {@code difficulty} are null before the first review. */
  record Card(State state, Integer step, Double stability, Double difficulty, Instant due, Instant lastReview) {
    Card {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(due, "due");
    }

    static Card fresh(Instant created) {
      return new Card(State.LEARNING, 0, null, null, created, null);
    }
  }

  record Review(Rating rating, Instant at) {
    Review {
      Objects.requireNonNull(rating, "rating");
      Objects.requireNonNull(at, "at");
    }
  }

  private final double[] w;
  private final double decay;
  private final double factor;
  private final List<Duration> learningSteps;

  Fsrs() {
    this(DEFAULT_PARAMETERS);
  }

  Fsrs(double[] parameters) {
    this(parameters, LEARNING_STEPS);
  }

  /** The scheduler the quiz uses: the default parameters with {@link #QUIZ_LEARNING_STEPS}. */
  static Fsrs forQuiz() {
    return new Fsrs(DEFAULT_PARAMETERS, QUIZ_LEARNING_STEPS);
  }

  Fsrs(double[] parameters, List<Duration> learningSteps) {
    if (parameters.length != 21) throw new IllegalArgumentException("FSRS-6 needs 21 parameters, got " + parameters.length);
    this.learningSteps = List.copyOf(learningSteps);
    this.w = parameters.clone();
    this.decay = -w[20];
    this.factor = Math.pow(0.9, 1 / decay) - 1;
  }

  /** The card after all {@code reviews}, applied in time order to a card created at {@code created}. */
  Card replay(Instant created, List<Review> reviews) {
    Card card = Card.fresh(created);
    List<Review> ordered = reviews.stream().sorted(Comparator.comparing(Review::at)).toList();
    for (Review review : ordered) card = review(card, review.rating(), review.at());
    return card;
  }

  double retrievability(Card card, Instant now) {
    if (card.lastReview() == null) return 0;
    long elapsedDays = Math.max(0, Duration.between(card.lastReview(), now).toDays());
    return Math.pow(1 + factor * elapsedDays / card.stability(), decay);
  }

  Card review(Card card, Rating rating, Instant at) {
    Long daysSinceLast = card.lastReview() == null ? null : Duration.between(card.lastReview(), at).toDays();
    double stability;
    double difficulty;
    State state = card.state();
    Integer step = card.step();
    Duration interval;

    if (card.state() == State.REVIEW) {
      stability = daysSinceLast != null && daysSinceLast < 1
          ? shortTermStability(card.stability(), rating)
          : nextStability(card.difficulty(), card.stability(), retrievability(card, at), rating);
      difficulty = nextDifficulty(card.difficulty(), rating);
      if (rating == Rating.AGAIN && !RELEARNING_STEPS.isEmpty()) {
        state = State.RELEARNING;
        step = 0;
        interval = RELEARNING_STEPS.get(0);
      } else {
        interval = Duration.ofDays(nextIntervalDays(stability));
      }
    } else {
      List<Duration> steps = card.state() == State.LEARNING ? learningSteps : RELEARNING_STEPS;
      if (card.stability() == null || card.difficulty() == null) {
        stability = initialStability(rating);
        difficulty = clampDifficulty(initialDifficulty(rating));
      } else if (daysSinceLast != null && daysSinceLast < 1) {
        stability = shortTermStability(card.stability(), rating);
        difficulty = nextDifficulty(card.difficulty(), rating);
      } else {
        stability = nextStability(card.difficulty(), card.stability(), retrievability(card, at), rating);
        difficulty = nextDifficulty(card.difficulty(), rating);
      }
      int current = step == null ? 0 : step;
      if (steps.isEmpty() || (current >= steps.size() && rating != Rating.AGAIN)) {
        state = State.REVIEW;
        step = null;
        interval = Duration.ofDays(nextIntervalDays(stability));
      } else if (rating == Rating.AGAIN) {
        step = 0;
        interval = steps.get(0);
      } else if (rating == Rating.HARD) {
        if (current == 0 && steps.size() == 1) interval = Duration.ofMillis((long) (steps.get(0).toMillis() * 1.5));
        else if (current == 0) interval = steps.get(0).plus(steps.get(1)).dividedBy(2);
        else interval = steps.get(current);
      } else if (rating == Rating.GOOD && current + 1 < steps.size()) {
        step = current + 1;
        interval = steps.get(step);
      } else { // Good on the last step, or Easy
        state = State.REVIEW;
        step = null;
        interval = Duration.ofDays(nextIntervalDays(stability));
      }
    }
    return new Card(state, step, stability, difficulty, at.plus(interval), at);
  }

  int nextIntervalDays(double stability) {
    double days = stability / factor * (Math.pow(DESIRED_RETENTION, 1 / decay) - 1);
    long rounded = (long) Math.rint(days); // Python round(): half to even
    return (int) Math.min(Math.max(rounded, 1), MAXIMUM_INTERVAL_DAYS);
  }

  double initialStability(Rating rating) {
    return Math.max(w[rating.value() - 1], STABILITY_MIN);
  }

  double initialDifficulty(Rating rating) {
    return w[4] - Math.exp(w[5] * (rating.value() - 1)) + 1;
  }

  private static double clampDifficulty(double d) {
    return Math.min(Math.max(d, 1.0), 10.0);
  }

  private double nextDifficulty(double difficulty, Rating rating) {
    double delta = -(w[6] * (rating.value() - 3));
    double damped = difficulty + (10.0 - difficulty) * delta / 9.0;
    double reverted = w[7] * initialDifficulty(Rating.EASY) + (1 - w[7]) * damped;
    return clampDifficulty(reverted);
  }

  private double shortTermStability(double stability, Rating rating) {
    double increase = Math.exp(w[17] * (rating.value() - 3 + w[18])) * Math.pow(stability, -w[19]);
    if (rating == Rating.GOOD || rating == Rating.EASY) increase = Math.max(increase, 1.0);
    return Math.max(stability * increase, STABILITY_MIN);
  }

  private double nextStability(double difficulty, double stability, double retrievability, Rating rating) {
    double next = rating == Rating.AGAIN
        ? forgetStability(difficulty, stability, retrievability)
        : recallStability(difficulty, stability, retrievability, rating);
    return Math.max(next, STABILITY_MIN);
  }

  private double forgetStability(double difficulty, double stability, double retrievability) {
    double longTerm = w[11] * Math.pow(difficulty, -w[12]) * (Math.pow(stability + 1, w[13]) - 1)
        * Math.exp((1 - retrievability) * w[14]);
    double shortTerm = stability / Math.exp(w[17] * w[18]);
    return Math.min(longTerm, shortTerm);
  }

  private double recallStability(double difficulty, double stability, double retrievability, Rating rating) {
    double hardPenalty = rating == Rating.HARD ? w[15] : 1;
    double easyBonus = rating == Rating.EASY ? w[16] : 1;
    return stability * (1 + Math.exp(w[8]) * (11 - difficulty) * Math.pow(stability, -w[9])
        * (Math.exp((1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus);
  }
}
