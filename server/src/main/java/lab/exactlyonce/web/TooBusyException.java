package lab.exactlyonce.web;

/**
 * A request refused because a shared resource (the sandbox's run queue) is at its cap for now: not the client's
 * mistake, and it may well succeed later. {@link ErrorResponses} answers it with 429, a {@code Retry-After} header
 * and the message followed by "; try again in N s". A feature's service throws its own subclass, so it never builds
 * an HTTP answer itself and the routes need no try/catch for it.
 */
public abstract class TooBusyException extends RuntimeException {
  private final long retryAfterSeconds;

  protected TooBusyException(String message, long retryAfterSeconds) {
    super(message, null, false, false);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
