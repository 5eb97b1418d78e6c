import java.util.*;

/** Reference solution: two-phase commit on the table's transactions. */
class AppendSink {
    private final Table table;
    private String txn;                                          // the open transaction, if any
    private final Map<Long, String> pending = new HashMap<Long, String>(); // checkpoint -> pre-committed txn

    AppendSink(Table table) {
        this.table = table;
    }

    void write(String key, int amount) {
        if (txn == null) txn = table.begin();
        table.append(txn, key, amount);
    }

    /** Pre-commit: the open transaction belongs to this checkpoint; the next write opens a new one. */
    String snapshot(long checkpointId) {
        String preCommitted = txn;
        if (preCommitted != null) pending.put(Long.valueOf(checkpointId), preCommitted);
        txn = null;
        return preCommitted == null ? "" : preCommitted;
    }

    void checkpointComplete(long checkpointId) {
        String done = (String) pending.remove(Long.valueOf(checkpointId));
        if (done != null) table.commit(done);
    }

    /** Commit what the restored checkpoint pre-committed (idempotent), abort whatever else is still open. */
    void recover(String state) {
        if (state != null && state.length() > 0) table.commit(state);
        List<String> open = table.openTransactions();
        for (int i = 0; i < open.size(); i++) table.abort((String) open.get(i));
    }
}
