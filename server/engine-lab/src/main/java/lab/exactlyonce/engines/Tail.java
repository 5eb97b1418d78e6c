package lab.exactlyonce.engines;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Consumers that follow the topics while the job runs, so the events say when each reader saw each record (a
 * read_uncommitted reader at once, a read_committed one at the commit). The driver also waits on them: a record the
 * at-least-once sink wrote before the crash is on the broker before the crash is let happen.
 */
final class Tail implements AutoCloseable {
  private final Thread thread;
  private final Map<String, Integer> seen = new HashMap<>();
  private volatile boolean stop;

  Tail(Topics topics, Events events, String exactlyOnce, String atLeastOnce) {
    thread = new Thread(() -> {
      try (KafkaConsumer<String, String> dirty = topics.consumer("read_uncommitted");
           KafkaConsumer<String, String> clean = topics.consumer("read_committed")) {
        List<TopicPartition> both = List.of(new TopicPartition(exactlyOnce, 0), new TopicPartition(atLeastOnce, 0));
        dirty.assign(both);
        dirty.seekToBeginning(both);
        List<TopicPartition> committedOnly = List.of(new TopicPartition(exactlyOnce, 0));
        clean.assign(committedOnly);
        clean.seekToBeginning(committedOnly);
        while (!stop) {
          for (ConsumerRecord<String, String> r : dirty.poll(Duration.ofMillis(20))) {
            String reader = r.topic().equals(exactlyOnce) ? "read_uncommitted" : "at_least_once";
            count(reader);
            boolean uncommitted = reader.equals("read_uncommitted");
            events.add("consumer", reader + " reader read " + r.key() + " from " + (uncommitted ? "billing" : "billing-alo"),
                uncommitted ? Events.step("consume", "isolation", reader, "key", r.key(), "value", Integer.parseInt(r.value()))
                    : null);
          }
          for (ConsumerRecord<String, String> r : clean.poll(Duration.ofMillis(20))) {
            count("read_committed");
            events.add("consumer", "read_committed reader read " + r.key() + " from billing", Events.step("consume",
                "isolation", "read_committed", "key", r.key(), "value", Integer.parseInt(r.value())));
          }
        }
      }
    }, "tail");
    thread.setDaemon(true);
    thread.start();
  }

  private void count(String reader) {
    synchronized (seen) {
      seen.merge(reader, 1, Integer::sum);
      seen.notifyAll();
    }
  }

  void await(String reader, int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (seen) {
      while (seen.getOrDefault(reader, 0) < count) {
        long left = deadline - System.nanoTime();
        if (left <= 0) throw new IllegalStateException("the " + reader + " reader did not see record " + count);
        try {
          seen.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted", e);
        }
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join(5_000);
  }
}
