package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Set;

/**
 * One step of a snippet's trace, as {@link Trace} recorded it. Fields that do not apply to the type are null and
 * left out of the JSON. {@code value} is a number or a string, as the snippet passed it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TraceEvent(long seq, String type, String sink, Long offset, String key, Object value, String txn,
                         Boolean visible, Long checkpoint, String isolation, String note) {
  /** The event types, in the order a reader meets them in the docs. */
  public static final Set<String> TYPES = Set.of("read", "write", "barrier", "precommit", "checkpoint", "commit",
      "abort", "crash", "replay", "consume", "truncated");

  public TraceEvent {
    if (!TYPES.contains(type)) throw new IllegalArgumentException("unknown trace event type " + type);
    if (value != null && !(value instanceof Number) && !(value instanceof String)) value = String.valueOf(value);
  }
}
