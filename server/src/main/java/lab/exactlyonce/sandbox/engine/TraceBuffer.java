package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The trace of one run, owned by its {@link RunThread}: only that thread appends. Holds at most {@code capacity}
 * events; the first event past that is replaced by one {@code truncated} event and the rest are dropped. Strings
 * are cut to {@value #MAX_TEXT} characters so a trace stays small whatever the snippet passes.
 */
final class TraceBuffer {
  static final int DEFAULT_CAPACITY = 5_000;
  static final int MAX_TEXT = 200;

  private final int capacity;
  private final List<TraceEvent> events = new ArrayList<>();
  private long dropped;

  TraceBuffer(int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("a trace holds at least one event");
    this.capacity = capacity;
  }

  void add(String type, String sink, Long offset, String key, Object value, String txn, Boolean visible,
           Long checkpoint, String isolation, String note) {
    if (dropped > 0) {
      dropped++;
      return;
    }
    if (events.size() == capacity) {
      dropped = 1;
      events.add(new TraceEvent(events.size() + 1, "truncated", null, null, null, null, null, null, null, null,
          "the trace holds at most " + capacity + " events; later events were dropped"));
      return;
    }
    events.add(new TraceEvent(events.size() + 1, type, cut(sink), offset, cut(key),
        value instanceof String ? cut((String) value) : value, cut(txn), visible, checkpoint, cut(isolation), cut(note)));
  }

  /** A copy of the events; read by the run's caller after the run thread ended. */
  List<TraceEvent> events() {
    return List.copyOf(events);
  }

  private static String cut(String text) {
    if (text == null || text.length() <= MAX_TEXT) return text;
    return text.substring(0, MAX_TEXT) + "...";
  }
}
