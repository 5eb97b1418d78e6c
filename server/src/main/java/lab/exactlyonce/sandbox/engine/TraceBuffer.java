package lab.exactlyonce.sandbox.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace of one run, owned by its {@link RunThread}: only that thread appends. Holds at most {@code capacity}
 * events and at most {@code maxBytes} bytes as the JSON array the answer carries; the first event past either is
 * replaced by one {@code truncated} event (which the byte cap leaves room for) and the rest are dropped. Strings
 * are cut to {@value #MAX_TEXT} characters. A sink's kind is recorded once: declaring it again with the same kind
 * adds nothing, with another kind is the learner's mistake.
 */
final class TraceBuffer {
  static final int MAX_TEXT = 200;
  /** Room kept for the truncated event: its JSON is under 200 bytes. */
  private static final int TRUNCATED_RESERVE = 256;

  private final int capacity;
  private final long maxBytes;
  private final List<TraceEvent> events = new ArrayList<>();
  private final Map<String, String> kinds = new HashMap<>(); // sink -> kind, one entry per recorded sink event
  private long dropped;
  /** The JSON size of the events so far, with the brackets and commas of the array. */
  private long bytes = 2;

  TraceBuffer(int capacity, int maxBytes) {
    if (capacity < 1) throw new IllegalArgumentException("a trace holds at least one event");
    if (maxBytes < 1) throw new IllegalArgumentException("a trace holds at least one byte");
    this.capacity = capacity;
    this.maxBytes = maxBytes;
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
    if (events.size() == capacity) return truncate("the trace holds at most " + capacity + " events");
    TraceEvent event = new TraceEvent(events.size() + 1, type, cut(sink), offset, cut(key),
        value instanceof String ? cut((String) value) : value, cut(txn), visible, checkpoint, cut(isolation), kind,
        cut(note));
    long size = jsonBytes(event) + (events.isEmpty() ? 0 : 1);
    if (bytes + size + TRUNCATED_RESERVE > maxBytes) return truncate("the trace holds at most " + maxBytes + " bytes");
    events.add(event);
    bytes += size;
    return true;
  }

  private boolean truncate(String why) {
    dropped = 1;
    events.add(new TraceEvent(events.size() + 1, "truncated", null, null, null, null, null, null, null, null, null,
        why + "; later events were dropped"));
    return false;
  }

  /**
   * At least the bytes Jackson writes for the event (UTF-8, nulls left out), without Jackson: this runs on the
   * learner's thread, where first use of a library class is best avoided.
   */
  static long jsonBytes(TraceEvent e) {
    long n = 2 + field("seq", String.valueOf(e.seq()), false) + field("type", e.type(), true)
        + field("sink", e.sink(), true) + field("offset", e.offset(), false) + field("key", e.key(), true)
        + field("value", e.value(), e.value() instanceof String) + field("txn", e.txn(), true)
        + field("visible", e.visible(), false) + field("checkpoint", e.checkpoint(), false)
        + field("isolation", e.isolation(), true) + field("kind", e.kind(), true) + field("note", e.note(), true);
    return n;
  }

  /** {@code ,"name":value}: the comma is counted for every field, one more than the object has. */
  private static long field(String name, Object value, boolean quoted) {
    if (value == null) return 0;
    return 1 + name.length() + 3 + (quoted ? quotedBytes(value.toString()) : String.valueOf(value).length());
  }

  private static long quotedBytes(String text) {
    long n = 2;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') n += 2;
      else if (c < 0x20) n += 6;
      else if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        n += 4;
        i++;
      } else if (Character.isSurrogate(c)) n += 6;  // a lone half: at most an escape
      else n += 3;
    }
    return n;
  }

  /** A copy of the events; read by the run's caller after the run thread ended. */
  List<TraceEvent> events() {
    return List.copyOf(events);
  }

  static String cut(String text) {
    if (text == null || text.length() <= MAX_TEXT) return text;
    int end = Character.isHighSurrogate(text.charAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT;  // keep pairs whole
    return text.substring(0, end) + "...";
  }
}
