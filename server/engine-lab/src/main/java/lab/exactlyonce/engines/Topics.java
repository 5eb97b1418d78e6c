package lab.exactlyonce.engines;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Creating a scenario's topics and reading them back the way a downstream consumer would. */
final class Topics {
  private final String bootstrap;

  Topics(String bootstrap) {
    this.bootstrap = bootstrap;
  }

  void create(String... names) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(props)) {
      List<NewTopic> topics = new ArrayList<>();
      for (String name : names) topics.add(new NewTopic(name, 1, (short) 1));
      admin.createTopics(topics).all().get();
    }
  }

  KafkaConsumer<String, String> consumer(String isolation) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(props);
  }

  /**
   * Everything a consumer with this isolation level reads from the topic's start to its end (for read_committed the
   * end is the last stable offset: no transaction is open once a scenario's job ended).
   */
  Map<String, Object> read(String topic, String isolation, String label) {
    TopicPartition partition = new TopicPartition(topic, 0);
    List<String> values = new ArrayList<>();
    int sum = 0;
    try (KafkaConsumer<String, String> consumer = consumer(isolation)) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (consumer.position(partition) < end && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
          values.add(record.key());
          sum += Integer.parseInt(record.value());
        }
      }
    }
    var reader = new LinkedHashMap<String, Object>();
    reader.put("topic", label);
    reader.put("isolation", isolation);
    reader.put("records", values.size());
    reader.put("sum", sum);
    reader.put("values", values);
    return reader;
  }
}
