package lab.exactlyonce.engines;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A single-node KRaft Kafka broker (broker and controller in one), in process, listening on 127.0.0.1 only: Kafka's
 * test kit pre-binds its listeners on every interface, so the broker is started here from its own parts.
 */
final class Broker implements AutoCloseable {
  private final KafkaRaftServer server;
  private final String bootstrap;

  Broker() throws Exception {
    int brokerPort = freePort();
    int controllerPort = freePort();
    Path dir = Files.createTempDirectory("kafka");
    Map<String, Object> props = new HashMap<>();
    props.put("process.roles", "broker,controller");
    props.put("node.id", "0");
    props.put("controller.quorum.voters", "0@127.0.0.1:" + controllerPort);
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", dir.toString());
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("transaction.state.log.num.partitions", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    // Sized for five orders, not a production load: the log cleaner's buffer alone defaults to 128 MB.
    props.put("log.cleaner.dedupe.buffer.size", "2097152");
    props.put("num.network.threads", "2");
    props.put("num.io.threads", "2");
    props.put("background.threads", "2");
    KafkaConfig config = new KafkaConfig(props);
    new Formatter().setPrintStream(System.err).setNodeId(0).setClusterId(Uuid.randomUuid().toString())
        .setDirectories(List.of(dir.toString())).setMetadataLogDirectory(dir.toString())
        .setReleaseVersion(MetadataVersion.latestProduction()).setSupportedFeatures(Feature.PRODUCTION_FEATURES)
        .setControllerListenerName("CONTROLLER").run();
    server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    bootstrap = "127.0.0.1:" + brokerPort;
    awaitReady();
  }

  String bootstrapServers() {
    return bootstrap;
  }

  private void awaitReady() throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(props)) {
      admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
    }
  }

  /** A port free on loopback now; the broker binds it a moment later (nothing else here races for ports). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
