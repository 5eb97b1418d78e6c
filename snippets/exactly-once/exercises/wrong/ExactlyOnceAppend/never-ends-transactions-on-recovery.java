// Wrong: two-phase commit, but recovery neither commits what the restored checkpoint pre-committed nor aborts
// Wrong: what the crashed attempt left open.
// Fails: crash after o4, checkpoints every 2 | transaction orders-3 left open with rows in it
// Fails: crash after the checkpoint at offset 4 completed, before its notice, checkpoints every 2 | record o3 lost
import java.util.*;

class AppendSink implements CheckpointedSink {
    static final String PREFIX = "orders";
    private final Table table;
    private String txn;
    private final TreeMap<Long, String> pending = new TreeMap<Long, String>();

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        if (txn == null) txn = table.begin(PREFIX);
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

    public void recover(String state) {}
}
