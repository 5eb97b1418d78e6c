// Wrong: recovery aborts every open transaction on the table, another job's included.
// Fails: crash after o4, checkpoints every 2 | the sink aborted audit-1, another writer's open transaction
import java.util.*;

class AppendSink implements CheckpointedSink {
    private final Table table;
    private String txn;
    private final TreeMap<Long, String> pending = new TreeMap<Long, String>();

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        if (txn == null) txn = table.begin("orders");
        table.append(txn, key, amount);
    }

    public String snapshot(long checkpointId) {
        if (txn != null) pending.put(Long.valueOf(checkpointId), txn);
        txn = null;
        return String.join(",", pending.values());
    }

    public void checkpointComplete(long checkpointId) {
        SortedMap<Long, String> done = pending.headMap(Long.valueOf(checkpointId + 1));
        for (String t : done.values()) table.commit(t);
        done.clear();
    }

    public void recover(String state) {
        List<String> restored = state == null || state.isEmpty() ? new ArrayList<String>() : Arrays.asList(state.split(","));
        for (String t : restored) table.commit(t);
        for (String t : table.openTransactions()) if (!restored.contains(t)) table.abort(t);
    }
}
