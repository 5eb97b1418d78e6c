package lab.exactlyonce.engines;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * Zombie fencing with plain Kafka clients: a producer writes o1 in a transaction, stalls, and a second producer with
 * the same {@code transactional.id} (the restarted task) starts, which fences the first and aborts its transaction,
 * then writes o1 again and commits. The stalled one wakes up and tries to go on.
 */
final class Fencing {
  Map<String, Object> run(Engines engines, String run, Consumer<String> phase) throws Exception {
    String bootstrap = engines.bootstrapServers(phase);
    phase.accept("running");
    String topic = "fencing-" + run;
    Topics topics = new Topics(bootstrap);
    topics.create(topic);
    Events events = new Events();
    List<Map<String, Object>> errors = new ArrayList<>();
    String transactionalId = "billing-writer-" + run;

    KafkaProducer<String, String> zombie = producer(bootstrap, transactionalId);
    try (KafkaProducer<String, String> successor = producer(bootstrap, transactionalId)) {
      zombie.initTransactions();
      zombie.beginTransaction();
      zombie.send(new ProducerRecord<>(topic, "o1", "10")).get();
      events.add("transaction-begun", "producer 1 began a transaction and wrote o1");
      successor.initTransactions();
      events.add("transaction-aborted", "producer 2 registered the same transactional.id: the broker raised its epoch,"
          + " fenced producer 1 and aborted producer 1's open transaction");
      successor.beginTransaction();
      successor.send(new ProducerRecord<>(topic, "o1", "10")).get();
      successor.commitTransaction();
      events.add("transaction-committed", "producer 2 wrote o1 again and committed");
      try {
        zombie.send(new ProducerRecord<>(topic, "o2", "20")).get();
        events.add("zombie-wrote", "producer 1 wrote o2: it was not fenced");
      } catch (ExecutionException e) {
        errors.add(error(e.getCause()));
        events.add("fenced", "producer 1's send of o2 failed: " + e.getCause().getClass().getSimpleName());
      }
      try {
        zombie.commitTransaction();
        events.add("zombie-committed", "producer 1 committed: it was not fenced");
      } catch (KafkaException e) {
        if (!errors.contains(error(e))) errors.add(error(e)); // the failed send may have ended the transaction already
        events.add("fenced", "producer 1's commit failed: " + e.getClass().getSimpleName());
      }
    } finally {
      zombie.close(Duration.ofSeconds(1));
    }
    phase.accept("reading-topics");
    var readers = new LinkedHashMap<String, Object>();
    readers.put("read_committed", topics.read(topic, "read_committed", "fencing"));
    readers.put("read_uncommitted", topics.read(topic, "read_uncommitted", "fencing"));
    return events.result(readers, errors);
  }

  static Map<String, Object> error(Throwable e) {
    var error = new LinkedHashMap<String, Object>();
    error.put("class", e.getClass().getName());
    error.put("message", String.valueOf(e.getMessage()));
    return error;
  }

  private static KafkaProducer<String, String> producer(String bootstrap, String transactionalId) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return new KafkaProducer<>(props);
  }
}
