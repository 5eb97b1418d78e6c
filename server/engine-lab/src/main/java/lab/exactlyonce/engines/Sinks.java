package lab.exactlyonce.engines;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.charset.StandardCharsets;

/** The Kafka sinks the scenarios' Flink jobs write to. */
final class Sinks {
  private Sinks() {}

  /**
   * A sink writing {@code id:amount} orders as key and value. Records go out at once ({@code linger.ms=0}), so what a
   * sink wrote before a crash is on the broker, as in the lesson's simulation.
   */
  static KafkaSinkBuilder<String> builder(String bootstrap, String topic, DeliveryGuarantee guarantee) {
    return KafkaSink.<String>builder().setBootstrapServers(bootstrap).setRecordSerializer(new OrderRecords(topic))
        .setDeliveryGuarantee(guarantee).setProperty("linger.ms", "0");
  }

  /** A timeout the broker accepts (its {@code transaction.max.timeout.ms} is 15 minutes). */
  static final String TRANSACTION_TIMEOUT_MS = "60000";

  static KafkaSink<String> exactlyOnce(String bootstrap, String topic, String transactionalIdPrefix) {
    return builder(bootstrap, topic, DeliveryGuarantee.EXACTLY_ONCE).setTransactionalIdPrefix(transactionalIdPrefix)
        .setProperty("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS).build();
  }

  record OrderRecords(String topic) implements KafkaRecordSerializationSchema<String> {
    @Override
    public ProducerRecord<byte[], byte[]> serialize(String order, KafkaSinkContext context, Long timestamp) {
      int colon = order.indexOf(':');
      return new ProducerRecord<>(topic, order.substring(0, colon).getBytes(StandardCharsets.UTF_8),
          order.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
    }
  }
}
