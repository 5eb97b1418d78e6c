package lab.exactlyonce.engines;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The settings every scenario's Flink job shares, and how a bounded one is brought to its end. */
final class Jobs {
  private Jobs() {}

  /**
   * A job environment with periodic checkpoints effectively off (the driver triggers each one at the record the knob
   * names) and one restart after a failure, half a second later.
   */
  static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofHours(1));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(1);
    return env;
  }

  /**
   * A bounded job ends only after one more checkpoint once its input ended (the sinks commit on it), and periodic
   * checkpoints are off: trigger them until the job is done.
   */
  static JobResult finish(MiniCluster flink, JobID job, CompletableFuture<JobResult> result, Events events)
      throws Exception {
    for (int i = 0; i < 40 && !result.isDone(); i++) {
      try {
        long id = flink.triggerCheckpoint(job, CheckpointType.CONFIGURED).get(30, TimeUnit.SECONDS);
        events.add("checkpoint-completed", "checkpoint " + id + " completed: the final one, after the input ended");
      } catch (ExecutionException e) {
        // the job finished while this checkpoint was on its way
      }
      try {
        result.get(200, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        // not finished yet: one more checkpoint
      }
    }
    JobResult done = result.get(30, TimeUnit.SECONDS);
    if (!done.isSuccess()) throw new IllegalStateException("the job failed");
    events.add("job-finished", "the job finished");
    return done;
  }
}
