package lab.exactlyonce.engines;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The outbox lesson's crash on real PostgreSQL, Kafka and a real relay (a polling one, or Debezium's PostgreSQL
 * connector): an order service commits five orders (o1..o5, 10..50), each with its outbox row in the same
 * transaction, and also publishes each to a topic of its own (the dual write); the relay carries the outbox rows to
 * the payments topic; three payment consumers charge what they read (the dual write's, the outbox's, and the
 * outbox's with an inbox). One process dies once, at the knobs' point and order, as in the lesson's simulation
 * ({@code OutboxDemo}), whose steps and logical clock it follows; the figures come from the database's rows and the
 * topics.
 */
final class OutboxCrash {
  /** Ticks a restart takes on the inbox's clock, as in the simulation. */
  static final int RESTART_TICKS = 4;

  record Knobs(int crashPoint, int crashAt, boolean cdc, int inboxTtl) {}

  private final Knobs knobs;

  OutboxCrash(Knobs knobs) {
    this.knobs = knobs;
  }

  Map<String, Object> run(Engines engines, String run, Consumer<String> phase) throws Exception {
    String bootstrap = engines.bootstrapServers(phase);
    Postgres postgres = engines.postgres(phase);
    phase.accept("running");
    String database = "orders_" + run;
    String slot = "outbox_" + run;
    postgres.createDatabase(database);
    Path dir = Files.createTempDirectory("outbox");
    Events events = new Events();
    try (Connection db = postgres.connect(database)) {
      createTables(db);
      Payments payments = new Payments(bootstrap, "payments-" + run, events);
      String dualTopic = "dual-write-" + run;
      new Topics(bootstrap).create(payments.topic(), dualTopic);
      Map<String, Object> answer;
      try (KafkaProducer<String, String> dualWrite = payments.producer();
           OutboxRelay relay = knobs.cdc() ? new CdcRelay(postgres, database, slot, dir, payments, events)
               : new PollingRelay(postgres, database, payments::producer, payments, events);
           Connection charges = postgres.connect(database);
           PaymentConsumer dual = new PaymentConsumer("DualWrite", bootstrap, dualTopic, "dual-" + run, charges, 0,
               events);
           PaymentConsumer plain = new PaymentConsumer("Outbox", bootstrap, payments.topic(), "plain-" + run,
               charges, 0, events);
           PaymentConsumer inboxed = new PaymentConsumer("Outbox+Inbox", bootstrap, payments.topic(),
               "inbox-" + run, charges, knobs.inboxTtl(), events)) {
        for (String sink : List.of("orders", "DualWrite payments", "payments", "DualWrite charges", "Outbox charges",
            "Outbox+Inbox charges")) {
          events.add("sink", sink, Events.step("sink", "sink", sink, "kind", "append"));
        }
        Steps steps = new Steps(db, relay, dualWrite, dualTopic, dual, plain, inboxed, events);
        for (int i = 1; i <= Orders.COUNT; i++) steps.place("o" + i, i * 10, i == knobs.crashAt());
        phase.accept("reading-figures");
        answer = figures(db, bootstrap, payments.topic(), dualTopic, events);
      }
      return answer;
    } finally {
      postgres.dropDatabase(database, slot);
      try (var files = Files.walk(dir)) {
        files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void createTables(Connection db) throws Exception {
    try (Statement s = db.createStatement()) {
      s.execute("CREATE TABLE orders (id text PRIMARY KEY, amount int NOT NULL)");
      s.execute("CREATE TABLE outbox (id serial PRIMARY KEY, order_id text NOT NULL, amount int NOT NULL,"
          + " sent boolean NOT NULL DEFAULT false)");
      s.execute("CREATE TABLE charges (seq serial PRIMARY KEY, consumer text NOT NULL, order_id text NOT NULL,"
          + " amount int NOT NULL)");
      s.execute("CREATE TABLE inbox (consumer text, message_id text, applied_at int NOT NULL,"
          + " PRIMARY KEY (consumer, message_id))");
    }
  }

  /** The simulation's {@code Run}, step for step, on the real engines. */
  private final class Steps {
    private final Connection db;
    private final OutboxRelay relay;
    private final KafkaProducer<String, String> dualWrite;
    private final String dualTopic;
    private final PaymentConsumer dual;
    private final PaymentConsumer plain;
    private final PaymentConsumer inboxed;
    private final Events events;
    private int clock;

    Steps(Connection db, OutboxRelay relay, KafkaProducer<String, String> dualWrite, String dualTopic,
        PaymentConsumer dual, PaymentConsumer plain, PaymentConsumer inboxed, Events events) {
      this.db = db;
      this.relay = relay;
      this.dualWrite = dualWrite;
      this.dualTopic = dualTopic;
      this.dual = dual;
      this.plain = plain;
      this.inboxed = inboxed;
      this.events = events;
    }

    void place(String order, int amount, boolean crashHere) throws Exception {
      int row = commit(order, amount);
      boolean serviceDied = crashHere && knobs.crashPoint() == 1;
      if (serviceDied) {
        events.add("crash", "the order service dies after committing " + order + ", before publishing it",
            Events.step("crash", "note", "the order service dies after committing " + order));
        clock += RESTART_TICKS; // and nothing replays: no record says the order was never published
      }
      boolean relayDied = relay.catchUp(row, crashHere && knobs.crashPoint() == 2);
      if (!serviceDied) {
        long offset = dualWrite.send(new ProducerRecord<>(dualTopic, order, Integer.toString(amount))).get().offset();
        events.add("published", "the order service published " + order + " itself at offset " + offset,
            Events.step("write", "sink", "DualWrite payments", "offset", offset, "key", order, "value", amount,
                "visible", true));
      }
      consume(crashHere && knobs.crashPoint() == 3);
      if (relayDied) {
        clock += RESTART_TICKS;
        relay.restart();
        events.add("restart", "the relay restarts: " + relay.recorded(),
            Events.step("replay", "offset", relay.resumesAt()));
        relay.catchUp(row, false);
        consume(false);
      }
    }

    /** One local transaction: the order row and its outbox row commit together or not at all. */
    private int commit(String order, int amount) throws Exception {
      db.setAutoCommit(false);
      try (PreparedStatement orders = db.prepareStatement("INSERT INTO orders (id, amount) VALUES (?, ?)");
           PreparedStatement outbox = db.prepareStatement(
               "INSERT INTO outbox (order_id, amount) VALUES (?, ?) RETURNING id")) {
        orders.setString(1, order);
        orders.setInt(2, amount);
        orders.executeUpdate();
        outbox.setString(1, order);
        outbox.setInt(2, amount);
        int row;
        try (ResultSet rs = outbox.executeQuery()) {
          rs.next();
          row = rs.getInt(1);
        }
        db.commit();
        events.add("committed", "the order service committed " + order + " with outbox row m" + row,
            Events.step("write", "sink", "orders", "key", order, "value", amount, "visible", true));
        return row;
      } finally {
        db.setAutoCommit(true);
      }
    }

    /** Every consumer reads what is new; the payments topic's consumers take one tick per message. */
    private void consume(boolean crashAfterCharging) throws Exception {
      while (dual.hasNext() || plain.hasNext()) {
        String charged = null;
        if (dual.hasNext()) charged = dual.handleNext(clock);
        if (plain.hasNext()) {
          clock++;
          charged = plain.handleNext(clock);
          inboxed.handleNext(clock);
        }
        if (crashAfterCharging) {
          String reason = "the payment consumers die after charging " + charged + ", before committing their offsets";
          events.add("crash", reason, Events.step("crash", "note", reason));
          clock += RESTART_TICKS;
          dual.restart();
          inboxed.restart();
          long from = plain.restart();
          events.add("restart", "the payment consumers restart from their committed offsets (payments: " + from + ")",
              Events.step("replay", "offset", from));
          crashAfterCharging = false;
          continue;
        }
        dual.commitOffset();
        plain.commitOffset();
        inboxed.commitOffset();
      }
    }
  }

  /**
   * The figures in the simulation's printed form, read from the engines: the orders table, each topic's length on
   * the broker, and each consumer's rows in the charges table.
   */
  private static Map<String, Object> figures(Connection db, String bootstrap, String paymentsTopic, String dualTopic,
      Events events) throws Exception {
    Map<String, Integer> orders = new TreeMap<>();
    try (ResultSet rs = db.createStatement().executeQuery("SELECT id, amount FROM orders ORDER BY id")) {
      while (rs.next()) orders.put(rs.getString(1), rs.getInt(2));
    }
    Topics topics = new Topics(bootstrap);
    Map<String, Object> dualTopicRead = topics.read(dualTopic, "read_uncommitted", "dual-write");
    Map<String, Object> paymentsRead = topics.read(paymentsTopic, "read_uncommitted", "payments");
    List<String> lines = new ArrayList<>();
    lines.add("Orders committed=" + orders.size() + " sum=" + orders.values().stream().mapToInt(i -> i).sum());
    var readers = new LinkedHashMap<String, Object>();
    for (String consumer : List.of("DualWrite", "Outbox", "Outbox+Inbox")) {
      Map<String, Object> topic = consumer.equals("DualWrite") ? dualTopicRead : paymentsRead;
      List<String> charged = new ArrayList<>();
      int sum = 0;
      try (PreparedStatement q = db.prepareStatement(
          "SELECT order_id, amount FROM charges WHERE consumer = ? ORDER BY seq")) {
        q.setString(1, consumer);
        try (ResultSet rs = q.executeQuery()) {
          while (rs.next()) {
            charged.add(rs.getString(1));
            sum += rs.getInt(2);
          }
        }
      }
      StringBuilder lost = new StringBuilder();
      StringBuilder twice = new StringBuilder();
      for (String order : orders.keySet()) {
        long n = charged.stream().filter(order::equals).count();
        if (n == 0) lost.append(' ').append(order);
        if (n > 1) twice.append(' ').append(order);
      }
      String verdict = (lost.length() > 0 ? " LOST" + lost : "") + (twice.length() > 0 ? " DUPLICATES" + twice : "");
      lines.add(consumer + " topic=" + topic.get("records") + " charges=" + charged.size() + " sum=" + sum
          + (verdict.isEmpty() ? " OK" : verdict));
      var reader = new LinkedHashMap<String, Object>();
      reader.put("topic", topic.get("topic"));
      reader.put("topicRecords", topic.get("records"));
      reader.put("topicValues", topic.get("values"));
      reader.put("records", charged.size());
      reader.put("sum", sum);
      reader.put("values", charged);
      readers.put(consumer, reader);
    }
    Map<String, Object> answer = events.result(readers, List.of());
    answer.put("lines", lines);
    // the server's own version: the lesson's recorded runs name the engines their figures come from
    try (ResultSet rs = db.createStatement().executeQuery("SHOW server_version")) {
      answer.put("versions", Map.of("postgresql", rs.next() ? rs.getString(1).split(" ")[0] : ""));
    }
    return answer;
  }
}
