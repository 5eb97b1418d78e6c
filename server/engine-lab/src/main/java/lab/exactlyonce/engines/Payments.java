package lab.exactlyonce.engines;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The payments topic the relays publish to: key the order, value its amount, and a {@code message-id} header with
 * the outbox row's id, the same in every copy of one event (what an inbox keys on).
 */
final class Payments {
  static final String MESSAGE_ID = "message-id";

  private final String bootstrap;
  private final String topic;
  private final Events events;

  Payments(String bootstrap, String topic, Events events) {
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.events = events;
  }

  String topic() {
    return topic;
  }

  KafkaProducer<String, String> producer() {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    return new KafkaProducer<>(props);
  }

  /** Publishes and waits for the broker's acknowledgement: the copy is on the topic before the relay goes on. */
  void publish(KafkaProducer<String, String> producer, OutboxRow row, String relay) throws Exception {
    var record = new ProducerRecord<String, String>(topic, row.order(), Integer.toString(row.amount()));
    record.headers().add(MESSAGE_ID, row.messageId().getBytes(StandardCharsets.UTF_8));
    long offset = producer.send(record).get().offset();
    events.add("published", relay + " published " + row.order() + " as " + row.messageId() + " at offset " + offset,
        Events.step("write", "sink", "payments", "offset", offset, "key", row.order(), "value", row.amount(),
            "visible", true));
  }
}
