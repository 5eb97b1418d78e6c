package lab.exactlyonce.engines;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Debezium's embedded engine with its PostgreSQL connector: it tails the database's write-ahead log through a
 * replication slot (pgoutput, a publication of the outbox table only) and publishes each committed outbox insert.
 * Its progress is the log position in its offsets file: the relay hands the engine an event's offset only every
 * third event (the lesson's stand-in for {@code offset.flush.interval.ms}, which flushes by time), and a stop flushes
 * only what was handed over, so a relay that dies re-emits, after its restart from the stored offsets, every event
 * since the last one handed over.
 */
final class CdcRelay implements OutboxRelay {
  static final int FLUSH_EVERY = 3;

  private final Postgres postgres;
  private final String database;
  private final String slot;
  private final Path offsets;
  private final Payments payments;
  private final Events events;
  private KafkaProducer<String, String> producer;
  private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private ExecutorService thread;
  private final Object lock = new Object();
  private int published; // the newest row this incarnation published
  private int handedOver; // the newest row whose offset this relay handed to the engine, in any incarnation
  private int dieAfter = -1;
  private boolean died;

  CdcRelay(Postgres postgres, String database, String slot, Path dir, Payments payments, Events events)
      throws Exception {
    this.postgres = postgres;
    this.database = database;
    this.slot = slot;
    this.offsets = Files.createTempFile(dir, "offsets", ".dat");
    this.payments = payments;
    this.events = events;
    start();
  }

  private void start() throws Exception {
    producer = payments.producer();
    synchronized (lock) {
      published = 0;
      died = false;
      dieAfter = -1;
    }
    Properties props = new Properties();
    props.setProperty("name", "outbox-relay");
    props.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    props.setProperty("offset.storage", "org.apache.kafka.connect.storage.FileOffsetBackingStore");
    props.setProperty("offset.storage.file.filename", offsets.toString());
    props.setProperty("offset.flush.interval.ms", "0"); // flush whatever was handed over at once
    props.setProperty("database.hostname", "127.0.0.1");
    props.setProperty("database.port", Integer.toString(postgres.port()));
    props.setProperty("database.user", Postgres.USER);
    props.setProperty("database.password", "unused"); // the server trusts loopback connections in its own namespace
    props.setProperty("database.dbname", database);
    props.setProperty("topic.prefix", "orders");
    props.setProperty("plugin.name", "pgoutput");
    props.setProperty("slot.name", slot);
    props.setProperty("slot.drop.on.stop", "false"); // the restarted relay reads on from the same slot
    props.setProperty("publication.name", slot);
    props.setProperty("publication.autocreate.mode", "filtered");
    props.setProperty("table.include.list", "public.outbox");
    props.setProperty("snapshot.mode", "no_data"); // the table is empty when the relay starts
    props.setProperty("poll.interval.ms", "20");
    CountDownLatch started = new CountDownLatch(1);
    engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
        .using(props)
        .using(new DebeziumEngine.ConnectorCallback() {
          @Override
          public void taskStarted() {
            started.countDown(); // the slot exists: every commit from here on is kept for it
          }
        })
        .notifying(this::handleBatch)
        .build();
    thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "cdc-relay"));
    thread.execute(engine);
    if (!started.await(60, TimeUnit.SECONDS)) throw new TimeoutException("Debezium's task did not start in 60 s");
  }

  private void handleBatch(List<RecordChangeEvent<SourceRecord>> batch,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer) throws InterruptedException {
    for (RecordChangeEvent<SourceRecord> event : batch) {
      if (!(event.record().value() instanceof Struct value) || value.getStruct("after") == null) continue;
      Struct after = value.getStruct("after");
      OutboxRow row = new OutboxRow(after.getInt32("id"), after.getString("order_id"), after.getInt32("amount"));
      try {
        payments.publish(producer, row, "the CDC relay");
      } catch (Exception e) {
        throw new IllegalStateException("the CDC relay could not publish " + row.messageId(), e);
      }
      synchronized (lock) {
        published = row.id();
        if (row.id() == dieAfter) {
          died = true; // its offset never reaches the engine: what a process killed here would leave behind
          lock.notifyAll();
          return;
        }
        if (row.id() % FLUSH_EVERY == 0) {
          committer.markProcessed(event);
          handedOver = row.id();
        }
        lock.notifyAll();
      }
    }
    committer.markBatchFinished();
  }

  @Override
  public boolean catchUp(int newest, boolean dieAfterNewest) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    synchronized (lock) {
      dieAfter = dieAfterNewest ? newest : -1;
      while (published < newest && !died) {
        long left = deadline - System.nanoTime();
        if (left <= 0) throw new TimeoutException("the CDC relay did not publish m" + newest + " in 30 s");
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
    }
    if (!died) return false;
    stop();
    String reason = "the CDC relay dies after publishing m" + newest + "; its offset was last flushed at "
        + (handedOver == 0 ? "none" : "m" + handedOver);
    events.add("crash", reason, Events.step("crash", "note", reason));
    return true;
  }

  @Override
  public void restart() throws Exception {
    start();
  }

  @Override
  public String recorded() {
    return "the stored offsets end at " + (handedOver == 0 ? "no event (it reads the slot from its start)"
        : "m" + handedOver);
  }

  @Override
  public int resumesAt() {
    return handedOver;
  }

  private void stop() throws Exception {
    engine.close();
    thread.shutdown();
    if (!thread.awaitTermination(30, TimeUnit.SECONDS)) throw new TimeoutException("Debezium did not stop in 30 s");
    producer.close();
  }

  @Override
  public void close() throws Exception {
    if (!thread.isShutdown()) stop();
  }
}
