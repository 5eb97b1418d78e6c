package lab.exactlyonce.engines;

import org.apache.flink.api.common.JobID;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.common.KafkaException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The transaction-timeout gotcha: an exactly-once {@code KafkaSink} left at the connector's default
 * {@code transaction.timeout.ms} (one hour) asks for more than the broker's {@code transaction.max.timeout.ms}
 * (15 minutes), and the job fails as it starts. The same job with a timeout under the broker's maximum succeeds.
 */
final class TimeoutGotcha {
  Map<String, Object> run(Engines engines, String run, Consumer<String> phase) throws Exception {
    String bootstrap = engines.bootstrapServers(phase);
    MiniCluster flink = engines.flink(phase);
    phase.accept("running");
    String failing = "gotcha-default-" + run;
    String fixed = "gotcha-fixed-" + run;
    Topics topics = new Topics(bootstrap);
    topics.create(failing, fixed);
    Events events = new Events();
    Gate.reset(events, Gate.Crash.NONE); // the sinks' transactions go to this scenario's events
    List<Map<String, Object>> errors = new ArrayList<>();

    StreamExecutionEnvironment env = Jobs.environment();
    env.fromData(orders()).sinkTo(Sinks.builder(bootstrap, failing, DeliveryGuarantee.EXACTLY_ONCE)
        .setTransactionalIdPrefix(failing).build());
    JobID first = flink.submitJob(env.getStreamGraph()).get().getJobID();
    events.add("job-submitted", "job 1: transaction.timeout.ms left at the connector's default of one hour");
    JobResult failed = flink.requestJobResult(first).get(60, TimeUnit.SECONDS);
    if (failed.isSuccess()) throw new IllegalStateException("the job with the default timeout did not fail");
    Throwable top = failed.getSerializedThrowable().orElseThrow().deserializeError(getClass().getClassLoader());
    for (Throwable cause = top; cause != null; cause = cause.getCause()) {
      if (cause instanceof KafkaException) {
        errors.add(Fencing.error(cause));
        events.add("job-failed", "job 1 failed at start: " + cause.getClass().getSimpleName());
        break;
      }
    }
    errors.add(Fencing.error(top));

    StreamExecutionEnvironment fixedEnv = Jobs.environment();
    fixedEnv.fromData(orders()).sinkTo(Sinks.exactlyOnce(bootstrap, fixed, fixed));
    JobID second = flink.submitJob(fixedEnv.getStreamGraph()).get().getJobID();
    events.add("job-submitted", "job 2: transaction.timeout.ms=" + Sinks.TRANSACTION_TIMEOUT_MS
        + ", under the broker's maximum");
    CompletableFuture<JobResult> result = flink.requestJobResult(second);
    Jobs.finish(flink, second, result, events);

    phase.accept("reading-topics");
    var readers = new LinkedHashMap<String, Object>();
    readers.put("read_committed", topics.read(fixed, "read_committed", "billing (fixed timeout)"));
    return events.result(readers, errors);
  }

  private static List<String> orders() {
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < Orders.COUNT; i++) orders.add(Orders.id(i) + ":" + Orders.amount(i));
    return orders;
  }
}
