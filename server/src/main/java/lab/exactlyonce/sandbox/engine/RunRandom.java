package lab.exactlyonce.sandbox.engine;

import java.security.SecureRandom;
import java.util.Random;

/**
 * Where a run's randomness comes from. The JDK keeps its generators JVM-wide ({@code Math.random()}'s one
 * {@code Random}, the seed uniquifier of {@code new Random()}, {@code Collections.shuffle}'s {@code Random},
 * {@code ThreadLocalRandom}'s seeder): in a worker that serves many learners, one learner's values would predict
 * the next learner's. The {@link Instrumenter} sends those calls to the run's own generator instead, seeded here
 * from a {@link SecureRandom}, whose outputs say nothing about its later ones.
 */
final class RunRandom {
  private static final SecureRandom SEEDS = new SecureRandom();

  private RunRandom() {
  }

  /** A generator for one run, seeded afresh. */
  static Random forRun() {
    return new Random(seed());
  }

  /** A fresh seed, for a learner's {@code new Random()}. */
  static long seed() {
    synchronized (SEEDS) {
      return SEEDS.nextLong();
    }
  }
}
