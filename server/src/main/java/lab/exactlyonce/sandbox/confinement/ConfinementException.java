package lab.exactlyonce.sandbox.confinement;

/**
 * This host cannot confine the sandbox's workers as {@code --sandbox-confinement} insists: the start stops, and the
 * message (one line naming the flag, the best launcher here and what it lacks) is what the operator reads.
 */
public final class ConfinementException extends RuntimeException {
  ConfinementException(String message) {
    super(message);
  }
}
