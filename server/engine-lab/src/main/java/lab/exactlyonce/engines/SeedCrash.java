package lab.exactlyonce.engines;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The lesson's crash on the real engines: five orders through one Flink job into an exactly-once {@code KafkaSink}
 * (topic billing) and an at-least-once one (billing-alo), checkpoints at the records the knobs name, one crash, one
 * restart; then three readers. The driver walks the same loop as the simulation ({@code SinkDemo}): write a record,
 * crash if this is the record, checkpoint if this is a checkpoint's record.
 */
final class SeedCrash {
  record Knobs(int crashAfter, int checkpointAfter, boolean crashBeforeComplete, boolean crashBeforeCommit) {}

  private static final Duration STEP = Duration.ofSeconds(30);

  private final Knobs knobs;
  private final Events events = new Events();
  private Tail tail;
  private MiniCluster flink;
  private JobID job;
  private int written;
  private long triggered;
  private long completedCheckpoint;
  private int completedOffset;

  SeedCrash(Knobs knobs) {
    this.knobs = knobs;
  }

  Map<String, Object> run(Engines engines, String run, Consumer<String> phase) throws Exception {
    String bootstrap = engines.bootstrapServers(phase);
    flink = engines.flink(phase);
    phase.accept("running");
    String exactlyOnce = "billing-" + run;
    String atLeastOnce = "billing-alo-" + run;
    Topics topics = new Topics(bootstrap);
    topics.create(exactlyOnce, atLeastOnce);
    Gate.Crash mode = knobs.crashBeforeComplete() ? Gate.Crash.BEFORE_COMPLETE
        : knobs.crashBeforeCommit() ? Gate.Crash.BEFORE_COMMIT : Gate.Crash.AFTER_RECORDS;
    Gate.reset(events, mode);
    events.add("sinks", "the job writes every order to an exactly-once sink (billing) and an at-least-once one"
        + " (billing-alo)", Events.step("sink", "sink", TransactionLog.SINK, "kind", "append"));
    events.add("sinks", "both sinks append", Events.step("sink", "sink", "billing-alo", "kind", "append"));

    StreamExecutionEnvironment env = Jobs.environment();
    DataStream<String> orders = env.fromSource(
            new DataGeneratorSource<>(index -> index, Orders.COUNT + 1, new Gate.Strategy(), Types.LONG),
            WatermarkStrategy.noWatermarks(), "orders")
        .flatMap(new Orders(knobs.crashAfter())).name("orders");
    orders.sinkTo(Sinks.exactlyOnce(bootstrap, exactlyOnce, "billing-" + run)).name("billing exactly-once");
    orders.sinkTo(Sinks.builder(bootstrap, atLeastOnce, DeliveryGuarantee.AT_LEAST_ONCE).build())
        .name("billing-alo at-least-once");

    try (Tail following = new Tail(topics, events, exactlyOnce, atLeastOnce)) {
      tail = following;
      job = flink.submitJob(env.getStreamGraph()).get().getJobID();
      CompletableFuture<JobResult> result = flink.requestJobResult(job);
      Gate.awaitReaders(1, STEP);
      firstAttempt(mode);
      Gate.awaitReaders(2, STEP);
      events.add("restart", "Flink restarted the job (attempt 2) from "
          + (completedCheckpoint == 0 ? "the start: no checkpoint had completed" : "checkpoint " + completedCheckpoint)
          + "; the source replays from offset " + completedOffset, Events.step("replay", "offset", completedOffset));
      replay();
      Jobs.finish(flink, job, result, events);
    }
    phase.accept("reading-topics");
    var readers = new LinkedHashMap<String, Object>();
    readers.put("read_committed", topics.read(exactlyOnce, "read_committed", "billing"));
    readers.put("read_uncommitted", topics.read(exactlyOnce, "read_uncommitted", "billing"));
    readers.put("at_least_once", topics.read(atLeastOnce, "read_uncommitted", "billing-alo"));
    return events.result(readers, List.of());
  }

  private void firstAttempt(Gate.Crash mode) throws Exception {
    for (int position = 1; position <= Orders.COUNT; position++) {
      write(0, position);
      if (mode == Gate.Crash.AFTER_RECORDS && position == knobs.crashAfter()) {
        Gate.permit(); // the next record meets the crash before any checkpoint at this one
        return;
      }
      if (isCheckpoint(position)) {
        boolean crashHere = mode != Gate.Crash.AFTER_RECORDS && position >= knobs.crashAfter();
        if (crashHere) Gate.arm();
        checkpoint(position, crashHere);
        if (crashHere) return;
      }
    }
    throw new IllegalStateException("the knobs let the job end without a crash");
  }

  private void replay() throws Exception {
    for (int position = completedOffset + 1; position <= Orders.COUNT; position++) {
      write(1, position);
      if (isCheckpoint(position)) checkpoint(position, false);
    }
    Gate.openUp(); // the end marker, then the end of the input
    Gate.awaitProcessed(1, Orders.COUNT, STEP);
  }

  private boolean isCheckpoint(int position) {
    return position % knobs.checkpointAfter() == 0 || position == Orders.COUNT;
  }

  /** Lets one record through and waits until both sinks' writes are on the broker. */
  private void write(int attempt, int position) {
    Gate.permit();
    Gate.awaitProcessed(attempt, position - 1, STEP);
    written++;
    tail.await("at_least_once", written, STEP);
    tail.await("read_uncommitted", written, STEP);
  }

  private void checkpoint(int position, boolean crashHere) throws Exception {
    triggered++; // the driver triggers every checkpoint, so Flink numbers them in this order
    events.add("checkpoint-triggered", "checkpoint " + triggered + " triggered after " + Orders.id(position - 1)
        + ": its barrier reaches the sinks, and the exactly-once sink pre-commits its open transaction",
        Events.step("barrier", "checkpoint", triggered));
    try {
      long id = flink.triggerCheckpoint(job, CheckpointType.CONFIGURED).get(STEP.toSeconds(), TimeUnit.SECONDS);
      completedCheckpoint = id;
      completedOffset = position;
      events.add("checkpoint-completed", "checkpoint " + id + " completed (source offset " + position + ")",
          Events.step("checkpointComplete", "checkpoint", id));
    } catch (ExecutionException | TimeoutException e) {
      if (!crashHere) throw e;
      events.add("checkpoint-failed", "the checkpoint after " + Orders.id(position - 1) + " never completed");
    }
  }
}
