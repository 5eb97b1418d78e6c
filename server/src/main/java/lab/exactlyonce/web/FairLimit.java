package lab.exactlyonce.web;

import io.javalin.http.Context;
import io.javalin.http.TooManyRequestsResponse;

import java.time.Clock;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A rate limit that shares one kind of work fairly across a class behind one address ({@link ClientKeys}). A request
 * with a learner cookie spends from its learner's budget and from its network's ceiling, sized for a class; requests
 * without one spend from a budget of their network's own, of the same size. So a student who floods with one cookie
 * is throttled alone, one who floods without cookies spends only what cookie-less requests share, and the class's
 * learners keep their budgets either way; only a student holding many cookies at once can reach the ceiling, as a
 * class's worth of learners would. A refusal is a 429 with {@code Retry-After} naming the limit it hit.
 */
public final class FairLimit {
  private final String what;
  private final int perClient;
  private final int perNetwork;
  private final ClientKeys clients;
  private final RateLimiter byClient;
  private final RateLimiter byNetwork;
  private final RateLimiter withoutCookie;

  /** @param what the work, as a plural the message names ("share links", "scored answers") */
  public FairLimit(String what, int perClientPerMinute, int perNetworkPerMinute, ClientKeys clients, Clock clock) {
    if (perClientPerMinute < 1 || perNetworkPerMinute < perClientPerMinute) {
      throw new IllegalArgumentException(what + ": a client's budget must be at least 1 and at most its network's, got "
          + perClientPerMinute + " and " + perNetworkPerMinute);
    }
    this.what = what;
    this.perClient = perClientPerMinute;
    this.perNetwork = perNetworkPerMinute;
    this.clients = clients;
    this.byClient = new RateLimiter(perClientPerMinute, clock);
    this.byNetwork = new RateLimiter(perNetworkPerMinute, clock);
    this.withoutCookie = new RateLimiter(perNetworkPerMinute, clock);
  }

  /** Takes one from the request's client and network, or throws 429 saying which limit it hit and when to retry. */
  public void take(Context ctx) {
    Optional<String> learner = clients.learner(ctx);
    if (learner.isEmpty()) {
      OptionalLong wait = withoutCookie.take(clients.network(ctx));
      if (wait.isPresent()) {
        refuse(ctx, wait.getAsLong(), "too many " + what + " from your network without a learner cookie: at most "
            + perNetwork + " a minute (allow this site's cookies to get a budget of your own)");
      }
      return;
    }
    OptionalLong wait = byClient.take(learner.get());
    if (wait.isPresent()) {
      refuse(ctx, wait.getAsLong(), "too many " + what + " from you: at most " + perClient + " a minute");
    }
    wait = byNetwork.take(clients.network(ctx));
    if (wait.isPresent()) {
      refuse(ctx, wait.getAsLong(), "too many " + what + " from your network: at most " + perNetwork
          + " a minute from one address");
    }
  }

  private static void refuse(Context ctx, long seconds, String why) {
    ctx.header("Retry-After", String.valueOf(seconds));
    throw new TooManyRequestsResponse(why + "; try again in " + seconds + " s");
  }
}
