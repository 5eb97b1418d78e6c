package lab.exactlyonce.engines;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exactly-once sink's transactions as the Flink Kafka connector reports them in its debug log: begun,
 * pre-committed for a checkpoint, committed, aborted. Read from the log because the connector has no other hook;
 * these lines go to the scenario's events only (stderr keeps warnings and up).
 */
final class TransactionLog {
  private static final String CONNECTOR = "org.apache.flink.connector.kafka.sink";
  private static final Pattern COMMITTABLE = Pattern.compile("transactionalId='([^']+)'");
  private static final Set<String> COMMITTED = ConcurrentHashMap.newKeySet();
  /**
   * A transactional id's current name on the timeline. The restarted sink reuses ids with a new producer epoch: a
   * second use of an id is "id #2", so its rows are not mixed up with the aborted ones of the first.
   */
  private static final Map<String, String> NAMES = new ConcurrentHashMap<>();
  private static final Map<String, Integer> USES = new ConcurrentHashMap<>();
  /** The exactly-once sink's open transaction, as the timeline names it: the one its next write goes into. */
  static volatile String open;

  /** The exactly-once sink as the timeline names it. */
  static final String SINK = "billing";

  private TransactionLog() {}

  static void install() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Configuration config = context.getConfiguration();
    AbstractAppender appender = new AbstractAppender("transactions", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        record(event.getMessage().getFormattedMessage());
      }
    };
    appender.start();
    config.addAppender(appender);
    LoggerConfig connector = LoggerConfig.newBuilder().withLoggerName(CONNECTOR).withLevel(Level.DEBUG)
        .withAdditivity(true).withConfig(config).build();
    connector.addAppender(appender, Level.DEBUG, null);
    config.addLogger(CONNECTOR, connector);
    context.updateLoggers();
  }

  static void record(String message) {
    if (message.startsWith("beginTransaction ")) {
      String id = last(message);
      int use = USES.merge(id, 1, Integer::sum);
      open = use == 1 ? id : id + " #" + use;
      NAMES.put(id, open);
      Gate.event("transaction-begun", "the exactly-once sink began transaction " + open);
    } else if (message.startsWith("Prepare KafkaCommittable")) {
      Matcher id = COMMITTABLE.matcher(message);
      if (id.find()) {
        Gate.event("transaction-pre-committed", "the exactly-once sink pre-committed transaction " + name(id.group(1))
            + " for the checkpoint: flushed to the broker, still invisible to read_committed",
            Events.step("preCommit", "sink", SINK, "txn", name(id.group(1))));
      }
    } else if (message.startsWith("commitTransaction ")) {
      String id = last(message);
      if (COMMITTED.add(id)) {
        Gate.event("transaction-committed", "the committer committed transaction " + name(id),
            Events.step("commit", "sink", SINK, "txn", name(id)));
      } else {
        Gate.event("transaction-committed", "on recovery the committer commits transaction " + id + " of the"
            + " restored checkpoint again: it was committed already, so the broker answers \"fenced\" and nothing"
            + " changes");
      }
    } else if (message.startsWith("abortTransaction ")) {
      Gate.event("transaction-aborted", "the exactly-once sink aborted transaction " + name(last(message)),
          Events.step("abort", "sink", SINK, "txn", name(last(message))));
    } else if (message.startsWith("Aborting transaction ")) {
      Gate.event("transaction-aborted", "on start the sink aborts lingering transaction " + last(message)
          + ", if there is one");
    }
  }

  private static String name(String id) {
    return NAMES.getOrDefault(id, id);
  }

  private static String last(String message) {
    return message.substring(message.lastIndexOf(' ') + 1);
  }
}
