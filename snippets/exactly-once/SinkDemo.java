// Id: sink-demo
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
// Knob: CRASH_AFTER int 1..5 Crash after this many records
// Knob: CHECKPOINT_AFTER int 1..5 Checkpoint every this many records
// Knob: CRASH_BEFORE_COMPLETE boolean false..true Crash at the next checkpoint, after its pre-commit but before it completes
// Knob: CRASH_BEFORE_COMMIT boolean false..true Crash at the next checkpoint, after its pre-commit but before its commit
import java.util.*;
import lab.exactlyonce.sandbox.engine.Trace;

public class SinkDemo {
    static final int CHECKPOINT_AFTER = 2;            // a checkpoint completes after every this many records
    static final int CRASH_AFTER = 4;                 // the job dies after writing this many records...
    static final boolean CRASH_BEFORE_COMPLETE = false; // ...or, if true, at the first checkpoint from that record
                                                        // on: after its pre-commit, before it completes
    static final boolean CRASH_BEFORE_COMMIT = false;   // ...or, if true, at that checkpoint once it completed,
                                                        // before the sinks hear it; with both set, the first wins.
                                                        // (Real Flink tells a sink's committer first, so on the
                                                        // real engines the commit comes just before the crash.)

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
        void onRecovery(long restoredCheckpointId) {}
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
        AppendSink() { Trace.sink(name(), "append"); }
        String name() { return "AppendSink"; }
        void write(Order o) {
            rows.add(o);
            Trace.write(name(), o.id, o.amount, null, true);
        }
        List<Order> visibleRows() { return rows; }
    }

    /** Overwrites by order id: a replay rewrites the same rows with the same values. */
    static class UpsertSink extends Sink {
        final Map<String, Order> byId = new LinkedHashMap<String, Order>();
        UpsertSink() { Trace.sink(name(), "upsert"); }
        String name() { return "UpsertSink"; }
        void write(Order o) {
            byId.put(o.id, o);
            Trace.write(name(), o.id, o.amount, null, true);
        }
        List<Order> visibleRows() { return new ArrayList<Order>(byId.values()); }
    }

    /**
     * Writes into an open transaction, pre-commits it on the barrier (durable, still invisible), and when a
     * checkpoint completes commits every transaction pre-committed up to it (a later checkpoint stands for the
     * earlier ones). Recovery commits what the restored checkpoint and those before it pre-committed (a no-op for
     * what was committed already: commit is idempotent) and aborts the rest: every transaction pre-committed for a
     * checkpoint that never completed, and the one the crashed attempt left open.
     */
    static class TwoPhaseSink extends Sink {
        final List<Order> committed = new ArrayList<Order>();
        final Map<String, List<Order>> preCommitted = new HashMap<String, List<Order>>(); // txn -> rows
        final TreeMap<Long, String> txnOfCheckpoint = new TreeMap<Long, String>(); // pre-committed, not yet ended
        final Set<String> committedTxns = new HashSet<String>();
        List<Order> open;
        String openTxn;
        int transactions = 0;

        TwoPhaseSink() {
            Trace.sink(name(), "append"); // a commit appends the transaction's rows
            begin();
        }

        String name() { return "TwoPhaseSink"; }

        void begin() {
            open = new ArrayList<Order>();
            openTxn = "txn-" + (++transactions);
        }

        void write(Order o) {
            open.add(o);
            Trace.write(name(), o.id, o.amount, openTxn, false);
            Trace.consume("read_uncommitted", o.id, o.amount); // a dirty reader sees it at once, even if aborted later
        }

        void onBarrier(long checkpointId) {
            preCommitted.put(openTxn, open);
            txnOfCheckpoint.put(Long.valueOf(checkpointId), openTxn);
            Trace.preCommit(name(), openTxn);
            begin(); // the next period gets a new transaction
        }

        void onCheckpointComplete(long checkpointId) {
            commitUpTo(checkpointId);
        }

        void commitUpTo(long checkpointId) {
            SortedMap<Long, String> done = txnOfCheckpoint.headMap(Long.valueOf(checkpointId + 1));
            for (String txn : done.values()) commit(txn);
            done.clear();
        }

        void commit(String txn) {
            if (committedTxns.contains(txn)) return; // committing twice changes nothing
            List<Order> rows = (List<Order>) preCommitted.remove(txn);
            committed.addAll(rows);
            committedTxns.add(txn);
            Trace.commit(name(), txn);
            for (Order o : rows) Trace.consume("read_committed", o.id, o.amount); // visible to everyone now
        }

        void onRecovery(long restoredCheckpointId) {
            commitUpTo(restoredCheckpointId);
            for (String txn : txnOfCheckpoint.values()) { // pre-committed for a checkpoint that never completed
                preCommitted.remove(txn);
                Trace.abort(name(), txn);
            }
            txnOfCheckpoint.clear();
            Trace.abort(name(), openTxn); // the crashed attempt's rows were never visible
            begin();
        }

        List<Order> visibleRows() { return committed; }
    }

    static class Crash extends RuntimeException {
        Crash(String reason) { super(reason); }
    }

    /** One job reading the log and writing every record to every sink, with checkpoints and one crash. */
    static class Job {
        final List<Order> log;
        final Sink[] sinks;
        long nextCheckpointId = 1;
        long completedCheckpoint = 0; // recovery restores this checkpoint...
        int completedOffset = 0;      // ...and replays the log from this offset

        Job(List<Order> log, Sink[] sinks) { this.log = log; this.sinks = sinks; }

        void runFrom(int offset, boolean crashEnabled) {
            for (int i = offset; i < log.size(); i++) {
                Order o = (Order) log.get(i);
                Trace.read(i, o.id, o.amount);
                for (Sink sink : sinks) sink.write(o);
                int position = i + 1;
                boolean atCheckpoint = CRASH_BEFORE_COMPLETE || CRASH_BEFORE_COMMIT;
                if (crashEnabled && !atCheckpoint && position == CRASH_AFTER) {
                    crash("crash after " + position + " records");
                }
                if (position % CHECKPOINT_AFTER == 0 || position == log.size()) {
                    checkpoint(position, crashEnabled && atCheckpoint && position >= CRASH_AFTER);
                }
            }
        }

        /** Barrier (each sink pre-commits), checkpoint complete (recovery will start here), then the commits. */
        void checkpoint(int position, boolean crashHere) {
            long id = nextCheckpointId++;
            Trace.barrier(id);
            for (Sink sink : sinks) sink.onBarrier(id);
            if (crashHere && CRASH_BEFORE_COMPLETE) crash("crash after the pre-commit of checkpoint " + id + ", before it completed");
            completedCheckpoint = id;
            completedOffset = position;
            Trace.checkpointComplete(id);
            if (crashHere) crash("crash after checkpoint " + id + " completed, before its commit");
            for (Sink sink : sinks) sink.onCheckpointComplete(id);
        }

        void crash(String reason) {
            Trace.crash(reason);
            throw new Crash(reason);
        }

        void run() {
            try {
                runFrom(0, true);
            } catch (Crash crash) {
                for (Sink sink : sinks) sink.onRecovery(completedCheckpoint);
                Trace.replay(completedOffset);
                runFrom(completedOffset, false);
            }
        }
    }

    public static void main(String[] args) {
        List<Order> log = new ArrayList<Order>();
        for (int i = 1; i <= 5; i++) log.add(new Order("o" + i, i * 10));

        Sink[] sinks = new Sink[] {new AppendSink(), new UpsertSink(), new TwoPhaseSink()};
        new Job(log, sinks).run();
        for (Sink sink : sinks) System.out.println(sink.report());
    }
}
