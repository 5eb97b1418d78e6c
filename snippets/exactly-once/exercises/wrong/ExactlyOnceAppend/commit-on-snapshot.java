// Wrong: commits at the snapshot instead of waiting for the checkpoint to complete: if the checkpoint then fails,
// Wrong: the replay writes the committed orders again.
// Fails: crash after the pre-commit at offset 4, before that checkpoint completed, checkpoints every 2 | duplicate write of o3 after replay from offset 2
import java.util.*;

class AppendSink implements CheckpointedSink {
    static final String PREFIX = "orders";
    private final Table table;
    private String txn;

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        if (txn == null) txn = table.begin(PREFIX);
        table.append(txn, key, amount);
    }

    public String snapshot(long checkpointId) {
        if (txn != null) table.commit(txn);
        txn = null;
        return "";
    }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {
        for (String t : table.openTransactions()) if (t.startsWith(PREFIX + "-")) table.abort(t);
    }
}
