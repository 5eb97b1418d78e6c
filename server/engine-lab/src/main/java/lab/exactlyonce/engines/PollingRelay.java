package lab.exactlyonce.engines;

import org.apache.kafka.clients.producer.KafkaProducer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Polls the outbox table for rows not yet sent, publishes each, then marks it sent. */
final class PollingRelay implements OutboxRelay {
  private final Postgres postgres;
  private final String database;
  private final Supplier<KafkaProducer<String, String>> producers;
  private final Payments payments;
  private final Events events;
  private KafkaProducer<String, String> producer;

  PollingRelay(Postgres postgres, String database, Supplier<KafkaProducer<String, String>> producers,
      Payments payments, Events events) {
    this.postgres = postgres;
    this.database = database;
    this.producers = producers;
    this.payments = payments;
    this.events = events;
    this.producer = producers.get();
  }

  @Override
  public boolean catchUp(int newest, boolean dieAfterNewest) throws Exception {
    try (Connection db = postgres.connect(database)) {
      List<OutboxRow> rows = new ArrayList<>();
      try (PreparedStatement unsent = db.prepareStatement(
          "SELECT id, order_id, amount FROM outbox WHERE NOT sent AND id <= ? ORDER BY id")) {
        unsent.setInt(1, newest);
        try (ResultSet rs = unsent.executeQuery()) {
          while (rs.next()) rows.add(new OutboxRow(rs.getInt(1), rs.getString(2), rs.getInt(3)));
        }
      }
      for (OutboxRow row : rows) {
        payments.publish(producer, row, "the polling relay");
        if (dieAfterNewest && row.id() == newest) {
          producer.close();
          String reason = "the relay dies after publishing " + row.order() + ", before marking it sent";
          events.add("crash", reason, Events.step("crash", "note", reason));
          return true;
        }
        try (PreparedStatement sent = db.prepareStatement("UPDATE outbox SET sent = true WHERE id = ?")) {
          sent.setInt(1, row.id());
          sent.executeUpdate();
        }
      }
    }
    return false;
  }

  @Override
  public void restart() {
    producer = producers.get();
  }

  @Override
  public String recorded() {
    return "the first outbox row not marked sent is m" + (resumesAt() + 1);
  }

  @Override
  public int resumesAt() {
    try (Connection db = postgres.connect(database);
         ResultSet rs = db.createStatement().executeQuery("SELECT min(id) FROM outbox WHERE NOT sent")) {
      rs.next();
      return rs.getInt(1) - 1;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
