// Wrong: a notice commits only its own checkpoint's transaction, and the snapshot names only the latest one. When
// Wrong: checkpoint 1's notice never comes, checkpoint 1's orders never become visible, though it completed.
// Fails: checkpoint 1's notice never arrives (checkpoint 2's notice covers it), no crash | record o1 lost
// Fails: checkpoint 1's notice never arrives (checkpoint 2's notice covers it), no crash | transaction orders-2 left open with rows in it
// Fails: checkpoint 1's notice never arrives (checkpoint 2's notice covers it), crash after checkpoint 2 completed, before its notice | record o2 lost
import java.util.*;

class AppendSink implements CheckpointedSink {
    static final String PREFIX = "orders";
    private final Table table;
    private String txn;
    private final Map<Long, String> pending = new HashMap<Long, String>();

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        if (txn == null) txn = table.begin(PREFIX);
        table.append(txn, key, amount);
    }

    public String snapshot(long checkpointId) {
        String preCommitted = txn;
        if (preCommitted != null) pending.put(Long.valueOf(checkpointId), preCommitted);
        txn = null;
        return preCommitted == null ? "" : preCommitted;
    }

    public void checkpointComplete(long checkpointId) {
        String done = pending.remove(Long.valueOf(checkpointId));
        if (done != null) table.commit(done);
    }

    public void recover(String state) {
        if (state != null && state.length() > 0) table.commit(state);
        for (String t : table.openTransactions()) if (t.startsWith(PREFIX + "-") && !t.equals(state)) table.abort(t);
    }
}
