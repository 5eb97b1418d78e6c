// Id: txn-dedupe-demo
// Title: Transactions and a TTL seen-set
// Summary: A log holding committed and aborted transactions, read at read_uncommitted and read_committed,
// Summary: then a stream of event ids deduplicated by a seen-set whose entries expire after 60 seconds.
// Expect: read_uncommitted: 6 records sum=170
// Expect: read_committed : 4 records sum=100
// Expect: dedupe(ttl=60s) kept: e1@0, e2@5, e3@30, e1@90 (e1@90 re-accepted: retry outlived TTL)
// Expect: seen-set size at end: 1
// Explain: The read_uncommitted reader added the rows of the aborted transaction, so its sum is wrong;
// Explain: read_committed skipped them. In the dedupe, e1 arrived again at t=90, after its entry from t=0
// Explain: had expired from the 60 second seen-set, so it was accepted a second time. Dedupe is only as
// Explain: good as its window: size the TTL to the longest retry horizon, or make the effect idempotent.
// Knob: TTL_SECONDS long 10..120 Seconds a seen event id is remembered
import java.util.*;
import lab.exactlyonce.sandbox.engine.Trace;

public class TxnDedupeDemo {
    static final long TTL_SECONDS = 60;

    static class Record {
        final String txn;
        final int value;
        Record(String txn, int value) { this.txn = txn; this.value = value; }
    }

    /** A partition log: records carry their transaction; markers decide what read_committed may see. */
    static class Log {
        final List<Record> records = new ArrayList<Record>();
        final Map<String, String> outcome = new HashMap<String, String>(); // txn -> COMMIT or ABORT

        Log() { Trace.sink("log", "append"); }

        void write(String txn, int value) {
            records.add(new Record(txn, value));
            Trace.write("log", txn, value, txn, false); // in the log, invisible to read_committed until the commit
        }
        void commit(String txn) {
            outcome.put(txn, "COMMIT");
            Trace.commit("log", txn);
        }
        void abort(String txn) {
            outcome.put(txn, "ABORT");
            Trace.abort("log", txn);
        }

        String read(String isolation) {
            int count = 0;
            int sum = 0;
            for (Record r : records) {
                boolean visible = isolation.equals("read_uncommitted") || "COMMIT".equals(outcome.get(r.txn));
                if (visible) {
                    count++;
                    sum += r.value;
                    Trace.consume(isolation, r.txn, r.value);
                }
            }
            return count + " records sum=" + sum;
        }
    }

    static class Event {
        final String id;
        final long at;
        Event(String id, long at) { this.id = id; this.at = at; }
        public String toString() { return id + "@" + at; }
    }

    /**
     * Drops an event whose id was first seen less than ttl seconds ago: an id seen at t is a duplicate before t + ttl
     * and forgotten from t + ttl on (the dedupe exercise counts its windows the same way).
     */
    static class SeenSet {
        final long ttl;
        final Map<String, Long> seenAt = new HashMap<String, Long>();
        SeenSet(long ttl) { this.ttl = ttl; }

        boolean accept(Event e) {
            Iterator<Map.Entry<String, Long>> it = seenAt.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<String, Long> entry = (Map.Entry<String, Long>) it.next();
                if (e.at - ((Long) entry.getValue()).longValue() >= ttl) it.remove();
            }
            if (seenAt.containsKey(e.id)) return false;
            seenAt.put(e.id, Long.valueOf(e.at));
            return true;
        }
        int size() { return seenAt.size(); }
    }

    public static void main(String[] args) {
        Log log = new Log();
        log.write("t1", 10); log.write("t1", 20); log.commit("t1");
        log.write("t2", 30); log.write("t2", 40); log.abort("t2");  // the crashed attempt
        log.write("t3", 30); log.write("t3", 40); log.commit("t3"); // the replay
        System.out.println("read_uncommitted: " + log.read("read_uncommitted"));
        System.out.println("read_committed : " + log.read("read_committed"));

        Event[] stream = new Event[] {
            new Event("e1", 0), new Event("e2", 5), new Event("e1", 20),
            new Event("e3", 30), new Event("e2", 40), new Event("e1", 90)
        };
        SeenSet seen = new SeenSet(TTL_SECONDS);
        Set<String> acceptedBefore = new HashSet<String>();
        List<String> kept = new ArrayList<String>();
        List<String> notes = new ArrayList<String>();
        Trace.sink("dedupe", "append"); // what the dedupe let through, in order
        for (int i = 0; i < stream.length; i++) {
            Event e = stream[i];
            Trace.read(i, e.id, e.at);
            if (!seen.accept(e)) continue;
            Trace.write("dedupe", e.id, e.at, null, true);
            kept.add(e.toString());
            if (!acceptedBefore.add(e.id)) notes.add(e + " re-accepted: retry outlived TTL");
        }
        StringBuilder line = new StringBuilder("dedupe(ttl=" + TTL_SECONDS + "s) kept: ");
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0) line.append(", ");
            line.append(kept.get(i));
        }
        for (String note : notes) line.append(" (").append(note).append(")");
        System.out.println(line);
        System.out.println("seen-set size at end: " + seen.size());
    }
}
