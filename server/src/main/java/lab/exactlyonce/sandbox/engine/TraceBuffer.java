package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace of one run, owned by its {@link RunThread}: only that thread appends. Holds at most {@code capacity}
 * events; the first event past that is replaced by one {@code truncated} event and the rest are dropped. Strings
 * are cut to {@value #MAX_TEXT} characters so a trace stays small whatever the snippet passes. A sink's kind is
 * recorded once: declaring it again with the same kind adds nothing, with another kind is the learner's mistake.
 */
final class TraceBuffer {
  static final int DEFAULT_CAPACITY = 5_000;
  static final int MAX_TEXT = 200;

  private final int capacity;
  private final List<TraceEvent> events = new ArrayList<>();
  private final Map<String, String> kinds = new HashMap<>(); // sink -> kind, one entry per recorded sink event
  private long dropped;

  TraceBuffer(int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("a trace holds at least one event");
    this.capacity = capacity;
  }

  void add(String type, String sink, Long offset, String key, Object value, String txn, Boolean visible,
           Long checkpoint, String isolation, String note) {
    record(type, sink, offset, key, value, txn, visible, checkpoint, isolation, null, note);
  }

  /** A {@code sink} event, unless this sink was declared before; {@code kind} is one of the sink kinds. */
  void declare(String sink, String kind) {
    String name = cut(sink);
    String before = kinds.get(name);
    if (before == null) {
      if (record("sink", name, null, null, null, null, null, null, null, kind, null)) kinds.put(name, kind);
    } else if (!before.equals(kind)) {
      throw new IllegalArgumentException(Trace.call(sink, kind) + ": sink \"" + name + "\" was declared \"" + before
          + "\" before; a sink has one kind");
    }
  }

  /** Appends the event; false when the trace is full and it was dropped. */
  private boolean record(String type, String sink, Long offset, String key, Object value, String txn, Boolean visible,
                         Long checkpoint, String isolation, String kind, String note) {
    if (dropped > 0) {
      dropped++;
      return false;
    }
    if (events.size() == capacity) {
      dropped = 1;
      events.add(new TraceEvent(events.size() + 1, "truncated", null, null, null, null, null, null, null, null, null,
          "the trace holds at most " + capacity + " events; later events were dropped"));
      return false;
    }
    events.add(new TraceEvent(events.size() + 1, type, cut(sink), offset, cut(key),
        value instanceof String ? cut((String) value) : value, cut(txn), visible, checkpoint, cut(isolation), kind,
        cut(note)));
    return true;
  }

  /** A copy of the events; read by the run's caller after the run thread ended. */
  List<TraceEvent> events() {
    return List.copyOf(events);
  }

  static String cut(String text) {
    if (text == null || text.length() <= MAX_TEXT) return text;
    return text.substring(0, MAX_TEXT) + "...";
  }
}
