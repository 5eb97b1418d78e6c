package lab.exactlyonce.sandbox.engine;

/**
 * What a snippet may record about its own run, for the replay timeline: how each sink keeps its rows, records read
 * at an offset, writes to a sink (visible to readers or not, inside a transaction or not), checkpoint barriers,
 * pre-commits, completed checkpoints, commits, aborts, crashes, replays and what consumers read at each isolation
 * level. The one class of ours that learner code may name: {@code import lab.exactlyonce.sandbox.engine.Trace;}.
 *
 * <p>Inside the sandbox each call appends to the run's bounded trace (see {@link TraceBuffer}), which only the
 * run's thread touches, and comes back in {@link RunResult#trace()}. Anywhere else (the snippet run with plain
 * {@code java} and the application jar on the class path) every call does nothing, except that a declaration without
 * a sink name or with a kind other than "append" or "upsert" throws everywhere.
 */
public final class Trace {
  private Trace() {
  }

  /**
   * Declares how {@code sink} keeps its rows: {@code "append"} (every write adds a row, so a replayed write is a
   * second row) or {@code "upsert"} (a write replaces the row with the same key). The timeline draws a sink that is
   * never declared as appending. Declaring a sink again with the same kind records nothing.
   *
   * @throws IllegalArgumentException if {@code sink} is null or blank, {@code kind} is neither, or (in the sandbox)
   *     the sink was declared with the other kind before
   */
  public static void sink(String sink, String kind) {
    if (sink == null || sink.isBlank()) throw new IllegalArgumentException(call(sink, kind) + ": the sink needs a name");
    if (kind == null || !TraceEvent.SINK_KINDS.contains(kind)) {
      throw new IllegalArgumentException(call(sink, kind) + ": the kind must be \"append\" (every write adds a row)"
          + " or \"upsert\" (a write replaces the row with the same key)");
    }
    Thread t = Thread.currentThread();
    if (t instanceof RunThread) ((RunThread) t).trace().declare(sink, kind);
  }

  /** {@code Trace.sink("UpsertSink", "keyed")}, for the messages about a declaration. */
  static String call(String sink, String kind) {
    return "Trace.sink(" + quoted(sink) + ", " + quoted(kind) + ")";
  }

  private static String quoted(String text) {
    return text == null ? "null" : "\"" + TraceBuffer.cut(text) + "\"";
  }

  /** The source handed the job the record at {@code offset}. */
  public static void read(long offset, String key, long value) {
    add("read", null, offset, key, value, null, null, null, null, null);
  }

  public static void read(long offset, String key, String value) {
    add("read", null, offset, key, value, null, null, null, null, null);
  }

  /** A write to {@code sink}, inside transaction {@code txnOrNull}; {@code visible}: a reader can see it now. */
  public static void write(String sink, String key, long value, String txnOrNull, boolean visible) {
    add("write", sink, null, key, value, txnOrNull, visible, null, null, null);
  }

  public static void write(String sink, String key, String value, String txnOrNull, boolean visible) {
    add("write", sink, null, key, value, txnOrNull, visible, null, null, null);
  }

  /** The barrier of checkpoint {@code checkpointId} passed through the job. */
  public static void barrier(long checkpointId) {
    add("barrier", null, null, null, null, null, null, checkpointId, null, null);
  }

  /** {@code sink} made transaction {@code txn} durable but not yet visible. */
  public static void preCommit(String sink, String txn) {
    add("precommit", sink, null, null, null, txn, null, null, null, null);
  }

  /** Checkpoint {@code checkpointId} is complete: recovery will start from it. */
  public static void checkpointComplete(long checkpointId) {
    add("checkpoint", null, null, null, null, null, null, checkpointId, null, null);
  }

  /** {@code sink} committed transaction {@code txn}: its writes are visible now. */
  public static void commit(String sink, String txn) {
    add("commit", sink, null, null, null, txn, null, null, null, null);
  }

  /** {@code sink} aborted transaction {@code txn}: its writes are gone. */
  public static void abort(String sink, String txn) {
    add("abort", sink, null, null, null, txn, null, null, null, null);
  }

  /** The job died. */
  public static void crash(String reason) {
    add("crash", null, null, null, null, null, null, null, null, reason);
  }

  /** Recovery rewound the source to {@code fromOffset}. */
  public static void replay(long fromOffset) {
    add("replay", null, fromOffset, null, null, null, null, null, null, null);
  }

  /** A consumer reading at {@code isolation} ("read_committed", "read_uncommitted") saw this record. */
  public static void consume(String isolation, String key, long value) {
    add("consume", null, null, key, value, null, null, null, isolation, null);
  }

  public static void consume(String isolation, String key, String value) {
    add("consume", null, null, key, value, null, null, null, isolation, null);
  }

  private static void add(String type, String sink, Long offset, String key, Object value, String txn,
                          Boolean visible, Long checkpoint, String isolation, String note) {
    Thread t = Thread.currentThread();
    if (t instanceof RunThread) {
      ((RunThread) t).trace().add(type, sink, offset, key, value, txn, visible, checkpoint, isolation, note);
    }
  }
}
