package lab.exactlyonce.engines;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.util.Collector;

/**
 * Turns the source's index into the seed's orders ({@code o1:10} ... {@code o5:50}) and, on the first attempt only,
 * crashes where the knobs say: on the record after the last one written (so the crash comes before the checkpoint at
 * that record), in its snapshot (after every sink in the chain pre-committed for the barrier, before the checkpoint
 * can complete), or when the checkpoint completed (before the sinks are told). Index 5 is past the orders: it only
 * marks the end, so a crash after the fifth record has a record to fire on.
 */
final class Orders extends RichFlatMapFunction<Long, String> implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;
  static final int COUNT = 5;

  private final int crashAfter;
  private transient int attempt;

  Orders(int crashAfter) {
    this.crashAfter = crashAfter;
  }

  static String id(long index) {
    return "o" + (index + 1);
  }

  static int amount(long index) {
    return (int) (index + 1) * 10;
  }

  @Override
  public void open(OpenContext context) {
    attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
  }

  @Override
  public void flatMap(Long index, Collector<String> out) {
    if (attempt == 0 && Gate.crash() == Gate.Crash.AFTER_RECORDS && index == crashAfter) {
      crash("crash after " + crashAfter + " records");
    }
    if (index < COUNT) {
      Gate.event("read", "attempt " + (attempt + 1) + " read " + id(index) + " (offset " + index + ") and wrote it to"
          + " both sinks", Events.step("read", "offset", index, "key", id(index), "value", amount(index)));
      out.collect(id(index) + ":" + amount(index));
      Gate.event("write", "the exactly-once sink wrote " + id(index) + " into transaction " + TransactionLog.open,
          Events.step("write", "sink", TransactionLog.SINK, "key", id(index), "value", amount(index),
              "txn", TransactionLog.open, "visible", false));
      Gate.event("write", "the at-least-once sink wrote " + id(index),
          Events.step("write", "sink", "billing-alo", "key", id(index), "value", amount(index), "visible", true));
    }
    Gate.processed(attempt, index);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    if (attempt == 0 && Gate.crash() == Gate.Crash.BEFORE_COMPLETE && Gate.armed()) {
      crash("crash after the pre-commit of checkpoint " + context.getCheckpointId() + ", before it completed");
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {}

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    if (attempt == 0 && Gate.crash() == Gate.Crash.BEFORE_COMMIT && Gate.armed()) {
      crash("crash as checkpoint " + checkpointId + " completed: Flink tells the sinks' committers before this operator,"
          + " so they may have committed already");
    }
  }

  private static void crash(String reason) {
    Gate.event("crash", reason, Events.step("crash", "note", reason));
    throw new ScenarioCrash(reason);
  }

  /** The crash the knobs ask for: the job's task fails with it and Flink restarts the job once. */
  static final class ScenarioCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ScenarioCrash(String reason) {
      super(reason);
    }
  }
}
