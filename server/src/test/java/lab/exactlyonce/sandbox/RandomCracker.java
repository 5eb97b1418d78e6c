package lab.exactlyonce.sandbox;

import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What an attacker does with two {@code nextDouble()} values of a {@code java.util.Random} (which is what
 * {@code Math.random()} returns): recovers the generator's 48-bit state, to predict every value it returns next.
 */
final class RandomCracker {
  private static final long MULTIPLIER = 0x5DEECE66DL;
  private static final long ADDEND = 0xBL;
  private static final long MASK = (1L << 48) - 1;
  /** The multiplier's inverse modulo 2^48, to step the generator back. */
  private static final long INVERSE = 0xDFE05BCB1365L;
  /** What {@code new Random()} seeds from, besides the clock: a JVM-wide value, stepped by this for every seed. */
  private static final long UNIQUIFIER_START = 8682522807148012L;
  private static final long UNIQUIFIER_STEP = 1181783497276652981L;

  private RandomCracker() {
  }

  /**
   * The state of the generator that returned {@code first} and then {@code second}, right after it returned
   * {@code second}; empty when no {@code java.util.Random} returns those two in a row.
   */
  static OptionalLong stateAfter(double first, double second) {
    long bits = (long) (first * 0x1.0p53);
    long high = bits >>> 27;               // next(26): the top 26 bits of the first state
    long low = bits & ((1L << 27) - 1);    // next(27): the top 27 bits of the one after it
    for (long guess = 0; guess < 1L << 22; guess++) {
      long state = step((high << 22) | guess);
      if (state >>> 21 != low) continue;
      long[] candidate = {state};
      if (nextDouble(candidate) == second) return OptionalLong.of(candidate[0]);
    }
    return OptionalLong.empty();
  }

  /** What the generator in {@code state} returns from {@code nextDouble()}; advances the state. */
  static double nextDouble(long[] state) {
    state[0] = step(state[0]);
    long a = state[0] >>> 22;
    state[0] = step(state[0]);
    long b = state[0] >>> 21;
    return ((a << 27) + b) * 0x1.0p-53;
  }

  /**
   * The low 48 bits of the seed given to {@code new Random(seed)} (all that it keeps) of a generator whose state
   * is {@code state} after {@code doubles} calls of {@code nextDouble()}.
   */
  static long seedBits(long state, int doubles) {
    long s = state;
    for (int i = 0; i < 2 * doubles; i++) s = ((s - ADDEND) * INVERSE) & MASK;
    return s ^ MULTIPLIER;
  }

  /**
   * Whether {@code seedBits} are what {@code new Random()} in an unchanged JDK gives when its clock read falls
   * between {@code nanosFrom} and {@code nanosTo}: one of the first {@code uniquifiers} JVM-wide uniquifiers, xor
   * the clock. An attacker who finds it knows the uniquifier of the next learner's {@code new Random()}.
   */
  static boolean fromUniquifierAndClock(long seedBits, long nanosFrom, long nanosTo, int uniquifiers) {
    Set<Long> known = new HashSet<>();
    long u = UNIQUIFIER_START;
    for (int i = 0; i < uniquifiers; i++) {
      u *= UNIQUIFIER_STEP;
      known.add(u & MASK);
    }
    for (long t = nanosFrom; t <= nanosTo; t++) {
      if (known.contains((seedBits ^ t) & MASK)) return true;
    }
    return false;
  }

  private static long step(long state) {
    return (state * MULTIPLIER + ADDEND) & MASK;
  }
}
