// Id: outbox-demo
// Title: Dual write, outbox and inbox after a crash
// Summary: An order service commits five orders; a payment consumer charges each one from the payments topic.
// Summary: The event travels three ways side by side (a dual write, an outbox relay, the same relay with a
// Summary: consumer inbox) while one process crashes once.
// Expect: Orders committed=5 sum=150
// Expect: DualWrite topic=5 charges=5 sum=150 OK
// Expect: Outbox topic=6 charges=6 sum=180 DUPLICATES o3
// Expect: Outbox+Inbox topic=6 charges=5 sum=150 OK
// Explain: The polling relay published o3, then died before it marked the outbox row sent, so after its restart
// Explain: it published o3 again: the topic holds o3 twice. The outbox never loses an event, but its relay
// Explain: delivers at least once, and the consumer without an inbox charged o3 twice. The inbox consumer had
// Explain: stored o3's message id in the transaction of its first charge, and skipped the copy. The dual write
// Explain: came through only because it has no relay to crash: with CRASH_POINT = 1 the service dies between its
// Explain: commit and its publish, and the dual write loses o3 while the outbox row still carries it. With CDC the
// Explain: relay re-emits every event since its last offset flush (every third event here), not just the last one;
// Explain: an INBOX_TTL shorter than the wait for a copy lets that copy through.
// Knob: CRASH_POINT int 1..3 Who crashes: 1 the order service, 2 the relay, 3 the payment consumers
// Knob: CRASH_AT int 1..5 The order it dies at
// Knob: CDC boolean false..true The relay tails the database log (CDC) instead of polling the outbox table
// Knob: INBOX_TTL int 1..10 Ticks an inbox entry is kept
import java.util.*;
import lab.exactlyonce.sandbox.engine.Trace;

public class OutboxDemo {
    static final int CRASH_POINT = 2;     // 1: the order service dies after its database commit, before its publish;
                                          // 2: the relay dies after publishing, before recording its progress;
                                          // 3: the payment consumers die after their charge committed, before
                                          //    committing their offset
    static final int CRASH_AT = 3;        // ...while handling this order (o1..o5)
    static final boolean CDC = false;     // the relay tails the database log instead of polling the outbox table
    static final int INBOX_TTL = 10;      // an inbox entry is pruned this many ticks after it was written; the clock
                                          // ticks once per message the payments consumers handle, and a restart
                                          // takes four ticks

    static class Order {
        final String id;
        final int amount;
        Order(String id, int amount) { this.id = id; this.amount = amount; }
    }

    /** A message on a topic; {@code id} is the outbox row's id, the same in every copy the relay sends. */
    static class Message {
        final String id;
        final Order order;
        Message(String id, Order order) { this.id = id; this.order = order; }
    }

    static class Crash extends RuntimeException {
        Crash(String reason) { super(reason); }
    }

    static void crash(String reason) {
        Trace.crash(reason);
        throw new Crash(reason);
    }

    /** A broker topic: an append-only log; a consumer reads it by offset. */
    static class Topic {
        final String name;
        final List<Message> log = new ArrayList<Message>();
        Topic(String name) {
            this.name = name;
            Trace.sink(name, "append");
        }
        void publish(Message m) {
            log.add(m);
            Trace.write(name, m.order.id, m.order.amount, null, true);
        }
    }

    /** The order service's database: the orders and, written in the same local transaction, the outbox rows. */
    static class Database {
        final List<Order> orders = new ArrayList<Order>();
        final List<Order> outbox = new ArrayList<Order>(); // also the database log's outbox inserts, in commit order
        final Set<Integer> sent = new HashSet<Integer>();  // outbox rows a polling relay marked sent
        Database() { Trace.sink("orders", "append"); }

        /** One local transaction: the order row and its outbox row commit together or not at all. */
        void commit(Order o) {
            orders.add(o);
            outbox.add(o);
            Trace.write("orders", o.id, o.amount, null, true);
        }
    }

    /** Carries committed outbox rows to the topic, at least once: it records its progress after publishing. */
    static abstract class Relay {
        final Database db;
        final Topic topic;
        int next; // the outbox position it reads next
        Relay(Database db, Topic topic) { this.db = db; this.topic = topic; }

        /** Publishes every row from {@code next} on; the crash, when armed, comes after publishing that row. */
        void run(int crashAtPosition) {
            while (next < db.outbox.size()) {
                int position = next;
                Order o = db.outbox.get(position);
                Trace.read(position, o.id, o.amount);
                topic.publish(new Message("m" + (position + 1), o));
                next = position + 1;
                if (position == crashAtPosition) crash(diedAfter(o));
                recordProgress(position);
            }
        }

        abstract void recordProgress(int position);
        abstract String diedAfter(Order o);
        /** A restarted relay starts from what it recorded, not from where the dead one was. */
        abstract int restart();
    }

    /** Polls the outbox table for rows not yet sent, publishes each and then marks it sent. */
    static class PollingRelay extends Relay {
        PollingRelay(Database db, Topic topic) { super(db, topic); }
        void recordProgress(int position) { db.sent.add(position); }
        String diedAfter(Order o) { return "the relay dies after publishing " + o.id + ", before marking it sent"; }
        int restart() {
            next = 0;
            while (db.sent.contains(next)) next++;
            return next;
        }
    }

    /**
     * Tails the database log. Like Kafka Connect and the Debezium engine, it keeps its position in memory and
     * flushes it to durable storage on an interval (offset.flush.interval.ms), here after every third event.
     */
    static class CdcRelay extends Relay {
        final int flushEvery = 3;
        int flushed; // the position a restarted relay resumes from
        CdcRelay(Database db, Topic topic) { super(db, topic); }
        void recordProgress(int position) {
            if ((position + 1) % flushEvery == 0) flushed = position + 1;
        }
        String diedAfter(Order o) {
            return "the CDC relay dies after publishing " + o.id + "; its offset was last flushed at " + flushed;
        }
        int restart() {
            next = flushed;
            return next;
        }
    }

    /** Message ids applied, each with the tick it was written at; entries INBOX_TTL ticks old are pruned. */
    static class Inbox {
        final Map<String, Integer> appliedAt = new HashMap<String, Integer>();

        /** Whether the message is new, recording it if so: a write in the charge's own transaction. */
        boolean firstTime(String messageId, int now) {
            appliedAt.values().removeIf(at -> now - at >= INBOX_TTL);
            if (appliedAt.containsKey(messageId)) return false;
            appliedAt.put(messageId, now);
            return true;
        }
    }

    /**
     * Charges each message it reads, then commits its offset (auto-commit off, a commit after every message); a
     * restart reads again from the committed offset.
     */
    static class PaymentConsumer {
        final String name;
        final Topic topic;
        final Inbox inboxOrNull;
        final List<Order> charges = new ArrayList<Order>();
        int position;
        int committed;

        PaymentConsumer(String name, Topic topic, Inbox inboxOrNull) {
            this.name = name;
            this.topic = topic;
            this.inboxOrNull = inboxOrNull;
            Trace.sink(name + " charges", "append");
        }

        boolean hasNext() { return position < topic.log.size(); }

        /** Handles the next message; the charge (and the inbox entry with it) commits in one transaction. */
        Message handleNext(int now) {
            Message m = topic.log.get(position++);
            if (inboxOrNull != null) {
                // Its own lane: every message it read, beside the charges it made.
                Trace.consume("deduplicating", m.order.id, m.order.amount);
                if (!inboxOrNull.firstTime(m.id, now)) return m;
            }
            charges.add(m.order);
            Trace.write(name + " charges", m.order.id, m.order.amount, null, true);
            return m;
        }

        void commitOffset() { committed = position; }

        int restart() {
            position = committed;
            return committed;
        }

        String report(List<Order> truth) {
            Map<String, Integer> times = new HashMap<String, Integer>();
            int sum = 0;
            for (Order o : charges) {
                times.merge(o.id, 1, Integer::sum);
                sum += o.amount;
            }
            StringBuilder lost = new StringBuilder();
            StringBuilder twice = new StringBuilder();
            for (Order o : truth) {
                int n = times.getOrDefault(o.id, 0);
                if (n == 0) lost.append(' ').append(o.id);
                if (n > 1) twice.append(' ').append(o.id);
            }
            String verdict = (lost.length() > 0 ? " LOST" + lost : "")
                + (twice.length() > 0 ? " DUPLICATES" + twice : "");
            return name + " topic=" + topic.log.size() + " charges=" + charges.size() + " sum=" + sum
                + (verdict.isEmpty() ? " OK" : verdict);
        }
    }

    /** The three ways side by side, fed the same orders and hit by the same crash. */
    static class Run {
        final Database db = new Database();
        final Topic dualTopic = new Topic("DualWrite payments");
        final PaymentConsumer dual = new PaymentConsumer("DualWrite", dualTopic, null);
        final Topic topic = new Topic("payments");
        final PaymentConsumer plain = new PaymentConsumer("Outbox", topic, null);
        final PaymentConsumer inboxed = new PaymentConsumer("Outbox+Inbox", topic, new Inbox());
        final Relay relay = CDC ? new CdcRelay(db, topic) : new PollingRelay(db, topic);
        final int restartTicks = 4;
        int clock = 0;

        void place(Order o, boolean crashHere) {
            db.commit(o);
            boolean serviceDied = crashHere && CRASH_POINT == 1;
            if (serviceDied) {
                Trace.crash("the order service dies after committing " + o.id + ", before publishing it");
                clock += restartTicks; // and nothing replays: no record says o was never published
            }
            // The relay runs on its own, whenever it finds a committed row; here it publishes before the service.
            boolean relayDied = false;
            try {
                relay.run(crashHere && CRASH_POINT == 2 ? db.outbox.size() - 1 : -1);
            } catch (Crash c) {
                relayDied = true;
            }
            if (!serviceDied) dualTopic.publish(new Message(null, o)); // the dual write's own publish
            consume(crashHere && CRASH_POINT == 3);
            if (relayDied) {
                clock += restartTicks;
                Trace.replay(relay.restart());
                relay.run(-1);
                consume(false);
            }
        }

        /** Every consumer reads what is new; the payments topic's consumers take one tick per message. */
        void consume(boolean crashAfterCharging) {
            while (dual.hasNext() || plain.hasNext()) {
                String charged = null;
                if (dual.hasNext()) charged = dual.handleNext(clock).order.id;
                if (plain.hasNext()) {
                    clock++;
                    charged = plain.handleNext(clock).order.id;
                    inboxed.handleNext(clock);
                }
                if (crashAfterCharging) {
                    Trace.crash("the payment consumers die after charging " + charged
                        + ", before committing their offsets");
                    clock += restartTicks;
                    dual.restart();
                    inboxed.restart();
                    Trace.replay(plain.restart());
                    crashAfterCharging = false;
                    continue;
                }
                dual.commitOffset();
                plain.commitOffset();
                inboxed.commitOffset();
            }
        }
    }

    public static void main(String[] args) {
        Run run = new Run();
        for (int i = 1; i <= 5; i++) run.place(new Order("o" + i, i * 10), i == CRASH_AT);

        int sum = 0;
        for (Order o : run.db.orders) sum += o.amount;
        System.out.println("Orders committed=" + run.db.orders.size() + " sum=" + sum);
        for (PaymentConsumer c : new PaymentConsumer[] {run.dual, run.plain, run.inboxed}) {
            System.out.println(c.report(run.db.orders));
        }
    }
}
