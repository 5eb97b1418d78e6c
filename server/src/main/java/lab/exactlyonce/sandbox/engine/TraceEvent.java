package lab.exactlyonce.sandbox.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Set;

/**
 * One step of a snippet's trace, as {@link Trace} recorded it. Fields that do not apply to the type are null and
 * left out of the JSON. {@code value} is a number or a string, as the snippet passed it. {@code kind} belongs to the
 * {@code sink} event alone: how that sink keeps its rows, one of {@link #SINK_KINDS}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TraceEvent(long seq, String type, String sink, Long offset, String key, Object value, String txn,
                         Boolean visible, Long checkpoint, String isolation, String kind, String note) {
  /** Every event type a trace may hold; an event of any other type is refused when it is made. */
  public static final Set<String> TYPES = Set.of("sink", "read", "write", "barrier", "precommit", "checkpoint",
      "commit", "abort", "crash", "replay", "consume", "truncated");
  /** How a sink keeps its rows: every write adds a row, or a write replaces the row with the same key. */
  public static final List<String> SINK_KINDS = List.of("append", "upsert");

  public TraceEvent {
    if (!TYPES.contains(type)) throw new IllegalArgumentException("unknown trace event type " + type);
    if (type.equals("sink") ? kind == null || !SINK_KINDS.contains(kind) : kind != null) {
      throw new IllegalArgumentException("a " + type + " event with kind " + kind
          + ": only a sink event has a kind, one of " + SINK_KINDS);
    }
    if (value != null && !(value instanceof Number) && !(value instanceof String)) value = String.valueOf(value);
  }
}
