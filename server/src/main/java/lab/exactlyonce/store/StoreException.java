package lab.exactlyonce.store;

/**
 * A database failure. At start-up its message is the one line the operator reads; at run time it is a bug or an
 * outage, logged in full and shown to the learner only as "internal error".
 */
public final class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** True when a unique or primary key refused a row (SQLState 23505, the same in H2 and PostgreSQL). */
  public boolean isDuplicateKey() {
    return Database.isDuplicateKey(getCause());
  }
}
