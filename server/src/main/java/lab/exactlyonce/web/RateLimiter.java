package lab.exactlyonce.web;

import java.time.Clock;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token buckets by key (a client address, a class, a student): each key may spend {@code perMinute} tokens at
 * once and gets them back evenly over a minute. {@link #take} says how many seconds to wait when the bucket is empty;
 * the route answers 429 with that as {@code Retry-After}. Every feature that limits a client's rate uses this one.
 */
public final class RateLimiter {
  private static final int PRUNE_AT = 20_000;

  private final double capacity;
  private final double perMilli;
  private final Clock clock;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  public RateLimiter(int perMinute, Clock clock) {
    this.capacity = perMinute;
    this.perMilli = perMinute / 60_000.0;
    this.clock = clock;
  }

  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }

  /** Takes one token for {@code key}: empty when allowed, else the seconds until one is back (at least 1). */
  public OptionalLong take(String key) {
    long now = clock.millis();
    if (buckets.size() > PRUNE_AT) prune(now);
    Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(capacity, now));
    synchronized (bucket) {
      bucket.tokens = tokensAt(bucket, now);
      bucket.at = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return OptionalLong.empty();
      }
      return waitFor(bucket.tokens);
    }
  }

  /** Whether {@link #take} would allow one now, without taking it: empty when it would, else the seconds to wait. */
  public OptionalLong peek(String key) {
    long now = clock.millis();
    Bucket bucket = buckets.get(key);
    if (bucket == null) return OptionalLong.empty();
    synchronized (bucket) {
      double tokens = tokensAt(bucket, now);
      return tokens >= 1 ? OptionalLong.empty() : waitFor(tokens);
    }
  }

  /** The bucket's tokens at {@code now}, refilled since it was last touched (the caller holds its lock). */
  private double tokensAt(Bucket bucket, long now) {
    return Math.min(capacity, bucket.tokens + (now - bucket.at) * perMilli);
  }

  /** The seconds until a bucket holding {@code tokens} (fewer than one) has a whole token again, at least 1. */
  private OptionalLong waitFor(double tokens) {
    return OptionalLong.of(Math.max(1, (long) Math.ceil((1 - tokens) / perMilli / 1000.0)));
  }

  /** Forgets buckets that have filled up again: they behave exactly like new ones. */
  private void prune(long now) {
    buckets.entrySet().removeIf(e -> {
      synchronized (e.getValue()) {
        return tokensAt(e.getValue(), now) >= capacity;
      }
    });
  }
}
