package lab.exactlyonce.engines;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * A payment service: reads a topic with its own consumer group, charges each message in a PostgreSQL transaction
 * (with an inbox: the message id goes into the inbox table in the same transaction, and a message already there is
 * skipped), then commits its offset (auto-commit off). A restart reads on from the committed offset.
 */
final class PaymentConsumer implements AutoCloseable {
  private final String name;
  private final String bootstrap;
  private final String group;
  private final TopicPartition partition;
  private final Connection db;
  private final int inboxTtl; // 0: no inbox
  private final Events events;
  private KafkaConsumer<String, String> consumer;
  private Iterator<ConsumerRecord<String, String>> fetched = List.<ConsumerRecord<String, String>>of().iterator();

  PaymentConsumer(String name, String bootstrap, String topic, String group, Connection db, int inboxTtl,
      Events events) {
    this.name = name;
    this.bootstrap = bootstrap;
    this.group = group;
    this.partition = new TopicPartition(topic, 0);
    this.db = db;
    this.inboxTtl = inboxTtl;
    this.events = events;
    open();
  }

  String name() {
    return name;
  }

  private void open() {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1"); // its position is the message it handles, plus one
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    consumer = new KafkaConsumer<>(props);
    consumer.assign(List.of(partition));
    fetched = List.<ConsumerRecord<String, String>>of().iterator();
  }

  boolean hasNext() {
    return fetched.hasNext() || consumer.position(partition) < consumer.endOffsets(List.of(partition)).get(partition);
  }

  /** Handles the next message; the charge (and the inbox entry with it) commits in one transaction. */
  String handleNext(int now) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!fetched.hasNext()) {
      if (System.nanoTime() > deadline) throw new TimeoutException(name + " read nothing in 30 s");
      fetched = consumer.poll(Duration.ofMillis(100)).iterator();
    }
    ConsumerRecord<String, String> message = fetched.next();
    String order = message.key();
    int amount = Integer.parseInt(message.value());
    Header id = message.headers().lastHeader(Payments.MESSAGE_ID);
    String messageId = id == null ? null : new String(id.value(), StandardCharsets.UTF_8);
    db.setAutoCommit(false);
    try {
      if (inboxTtl > 0 && !firstTime(messageId, now)) {
        db.commit();
        events.add("skipped", name + " skipped " + order + ": " + messageId + " is in its inbox");
        return order;
      }
      try (PreparedStatement charge = db.prepareStatement(
          "INSERT INTO charges (consumer, order_id, amount) VALUES (?, ?, ?)")) {
        charge.setString(1, name);
        charge.setString(2, order);
        charge.setInt(3, amount);
        charge.executeUpdate();
      }
      db.commit();
    } catch (Exception e) {
      db.rollback();
      throw e;
    } finally {
      db.setAutoCommit(true);
    }
    events.add("charged", name + " charged " + order + " (" + amount + ") from offset " + message.offset(),
        Events.step("write", "sink", name + " charges", "key", order, "value", amount, "visible", true));
    return order;
  }

  /** Prunes entries {@code inboxTtl} ticks old, then records the message id unless it is there already. */
  private boolean firstTime(String messageId, int now) throws Exception {
    try (PreparedStatement prune = db.prepareStatement("DELETE FROM inbox WHERE consumer = ? AND ? - applied_at >= ?");
         PreparedStatement add = db.prepareStatement(
             "INSERT INTO inbox (consumer, message_id, applied_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
      prune.setString(1, name);
      prune.setInt(2, now);
      prune.setInt(3, inboxTtl);
      prune.executeUpdate();
      add.setString(1, name);
      add.setString(2, messageId);
      add.setInt(3, now);
      return add.executeUpdate() == 1;
    }
  }

  void commitOffset() {
    consumer.commitSync(Map.of(partition, new OffsetAndMetadata(consumer.position(partition))));
  }

  /** A new consumer in the dead one's group: it reads on from the committed offset. */
  long restart() {
    consumer.close(Duration.ZERO);
    open();
    OffsetAndMetadata committed = consumer.committed(Set.of(partition)).get(partition);
    return committed == null ? 0 : committed.offset();
  }

  @Override
  public void close() {
    consumer.close(Duration.ZERO);
  }
}
