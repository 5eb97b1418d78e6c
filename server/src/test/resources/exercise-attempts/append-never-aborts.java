import java.util.*;

/** A wrong fix: transactions, but recovery neither commits the restored one nor aborts the open one. */
class AppendSink implements CheckpointedSink {
    private final Table table;
    private String txn;
    private final Map<Long, String> pending = new HashMap<Long, String>();

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        if (txn == null) txn = table.begin();
        table.append(txn, key, amount);
    }

    public String snapshot(long checkpointId) {
        if (txn != null) pending.put(Long.valueOf(checkpointId), txn);
        String s = txn == null ? "" : txn;
        txn = null;
        return s;
    }

    public void checkpointComplete(long checkpointId) {
        String done = (String) pending.remove(Long.valueOf(checkpointId));
        if (done != null) table.commit(done);
    }

    public void recover(String state) {}
}
