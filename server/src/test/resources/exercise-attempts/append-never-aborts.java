import java.util.*;

/** A wrong fix: transactions, but recovery neither commits the restored one nor aborts the open one. */
class AppendSink {
    private final Table table;
    private String txn;
    private final Map<Long, String> pending = new HashMap<Long, String>();

    AppendSink(Table table) { this.table = table; }

    void write(String key, int amount) {
        if (txn == null) txn = table.begin();
        table.append(txn, key, amount);
    }

    String snapshot(long checkpointId) {
        if (txn != null) pending.put(Long.valueOf(checkpointId), txn);
        String s = txn == null ? "" : txn;
        txn = null;
        return s;
    }

    void checkpointComplete(long checkpointId) {
        String done = (String) pending.remove(Long.valueOf(checkpointId));
        if (done != null) table.commit(done);
    }

    void recover(String state) {}
}
