// Title: Three sinks after a crash
// Summary: Five orders, a checkpoint after two, a crash after four, and a replay from the checkpoint
// Summary: through an append sink, an upsert sink and a two-phase-commit sink.
// Expect: AppendSink rows=7 sum=220 DUPLICATES
// Expect: UpsertSink rows=5 sum=150 OK
// Expect: TwoPhaseSink rows=5 sum=150 OK
// Explain: The append sink wrote o3 and o4 twice: they were written after the checkpoint at offset 2,
// Explain: the job crashed after o4, and recovery replayed from offset 2. The upsert sink converged
// Explain: because each write overwrites the row for its order id. The two-phase sink kept o3 and o4
// Explain: in an open transaction that no reader could see, aborted it on recovery, and committed
// Explain: the replayed rows under a new transaction.
import java.util.*;

public class SinkDemo {
    static final int CHECKPOINT_AFTER = 2; // a checkpoint completes after this many records
    static final int CRASH_AFTER = 4;      // the job dies after writing this many records

    static class Order {
        final String id;
        final int amount;
        Order(String id, int amount) { this.id = id; this.amount = amount; }
    }

    /** What a sink must do: write a record, take part in a checkpoint, and recover after a crash. */
    static abstract class Sink {
        abstract String name();
        abstract void write(Order o);
        void onBarrier(long checkpointId) {}
        void onCheckpointComplete(long checkpointId) {}
        void onRecovery() {}
        abstract List<Order> visibleRows();

        String report() {
            List<Order> rows = visibleRows();
            Set<String> keys = new HashSet<String>();
            int sum = 0;
            boolean duplicates = false;
            for (Order o : rows) {
                sum += o.amount;
                if (!keys.add(o.id)) duplicates = true;
            }
            return name() + " rows=" + rows.size() + " sum=" + sum + (duplicates ? " DUPLICATES" : " OK");
        }
    }

    /** Appends every write: a replay appends the same rows again. */
    static class AppendSink extends Sink {
        final List<Order> rows = new ArrayList<Order>();
        String name() { return "AppendSink"; }
        void write(Order o) { rows.add(o); }
        List<Order> visibleRows() { return rows; }
    }

    /** Overwrites by order id: a replay rewrites the same rows with the same values. */
    static class UpsertSink extends Sink {
        final Map<String, Order> byId = new LinkedHashMap<String, Order>();
        String name() { return "UpsertSink"; }
        void write(Order o) { byId.put(o.id, o); }
        List<Order> visibleRows() { return new ArrayList<Order>(byId.values()); }
    }

    /** Writes into an open transaction, pre-commits on the barrier, commits when the checkpoint completes. */
    static class TwoPhaseSink extends Sink {
        final List<Order> committed = new ArrayList<Order>();
        List<Order> open = new ArrayList<Order>();
        final Map<Long, List<Order>> preCommitted = new TreeMap<Long, List<Order>>();
        String name() { return "TwoPhaseSink"; }
        void write(Order o) { open.add(o); }
        void onBarrier(long checkpointId) {
            preCommitted.put(Long.valueOf(checkpointId), open); // durable but invisible
            open = new ArrayList<Order>();                     // the next period gets a new transaction
        }
        void onCheckpointComplete(long checkpointId) {
            List<Order> txn = (List<Order>) preCommitted.remove(Long.valueOf(checkpointId));
            if (txn != null) committed.addAll(txn);
        }
        void onRecovery() {
            open = new ArrayList<Order>(); // abort the transaction the crashed attempt left open
        }
        List<Order> visibleRows() { return committed; }
    }

    static class Crash extends RuntimeException {
        Crash() { super("crash after " + CRASH_AFTER + " records"); }
    }

    /** Runs the job from an offset; returns normally only when the source is exhausted. */
    static int runFrom(int offset, List<Order> log, Sink sink, boolean crashEnabled, long[] nextCheckpoint) {
        int written = 0;
        for (int i = offset; i < log.size(); i++) {
            sink.write((Order) log.get(i));
            written++;
            int position = i + 1;
            if (crashEnabled && position == CRASH_AFTER) throw new Crash();
            if (position % CHECKPOINT_AFTER == 0) {
                long id = nextCheckpoint[0]++;
                sink.onBarrier(id);
                sink.onCheckpointComplete(id);
                lastCheckpointOffset = position;
            }
        }
        long id = nextCheckpoint[0]++; // end of input: a final checkpoint covers the tail
        sink.onBarrier(id);
        sink.onCheckpointComplete(id);
        lastCheckpointOffset = log.size();
        return written;
    }

    static int lastCheckpointOffset = 0;

    static void simulate(List<Order> log, Sink sink) {
        lastCheckpointOffset = 0;
        long[] nextCheckpoint = new long[] {1};
        try {
            runFrom(0, log, sink, true, nextCheckpoint);
        } catch (Crash crash) {
            sink.onRecovery();
            runFrom(lastCheckpointOffset, log, sink, false, nextCheckpoint);
        }
    }

    public static void main(String[] args) {
        List<Order> log = new ArrayList<Order>();
        for (int i = 1; i <= 5; i++) log.add(new Order("o" + i, i * 10));

        Sink[] sinks = new Sink[] {new AppendSink(), new UpsertSink(), new TwoPhaseSink()};
        for (Sink sink : sinks) {
            simulate(log, sink);
            System.out.println(sink.report());
        }
    }
}
