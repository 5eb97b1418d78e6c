package lab.exactlyonce.engines;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One single-node KRaft Kafka broker and one Flink MiniCluster, started with the first scenario and kept for the
 * next ones (a warm run skips both starts). Both listen on loopback only: the broker's listeners are
 * 127.0.0.1 ({@link Broker}), Flink's RPC, REST endpoint, blob server and data port bind to 127.0.0.1 on free ports.
 */
final class Engines implements AutoCloseable {
  private Broker kafka;
  private MiniCluster flink;
  private Postgres postgres;

  String bootstrapServers(Consumer<String> phase) throws Exception {
    if (kafka == null) {
      phase.accept("starting-broker");
      kafka = new Broker();
    }
    return kafka.bootstrapServers();
  }

  /** Started by the first scenario that needs it: the first lesson's runs never wait for it. */
  Postgres postgres(Consumer<String> phase) throws Exception {
    if (postgres == null) {
      phase.accept("starting-postgres");
      postgres = new Postgres();
    }
    return postgres;
  }

  MiniCluster flink(Consumer<String> phase) throws Exception {
    if (flink == null) {
      phase.accept("starting-flink");
      Configuration conf = new Configuration();
      conf.set(TaskManagerOptions.NUM_TASK_SLOTS, 2);
      conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
      conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1"); // the blob server would listen on every interface
      conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1"); // and so would the task manager's data port
      conf.set(TaskManagerOptions.HOST, "127.0.0.1");
      conf.set(RestOptions.BIND_PORT, "0"); // not 8081: two engine processes (two app instances) can run at once
      MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
          .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).setCommonBindAddress("127.0.0.1").build());
      cluster.start();
      flink = cluster;
    }
    return flink;
  }

  /**
   * Deletes every topic the scenarios made (each run names its own), so that a broker kept warm for a whole day of
   * classes holds one run's logs at a time instead of every run's.
   */
  void deleteTopics() throws Exception {
    if (kafka == null) return;
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      Set<String> topics = admin.listTopics().names().get(); // the broker's internal topics are not listed
      if (!topics.isEmpty()) admin.deleteTopics(topics).all().get();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (flink != null) flink.close();
    } finally {
      try {
        if (postgres != null) postgres.close();
      } finally {
        if (kafka != null) kafka.close();
      }
    }
  }
}
