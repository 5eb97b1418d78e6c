// Wrong: a transaction per write, committed at once: no different from appending without one.
// Fails: crash after o4, checkpoints every 2 | duplicate write of o3 after replay from offset 2
import java.util.*;

class AppendSink implements CheckpointedSink {
    static final String PREFIX = "orders";
    private final Table table;

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        String txn = table.begin(PREFIX);
        table.append(txn, key, amount);
        table.commit(txn);
    }

    public String snapshot(long checkpointId) { return ""; }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {}
}
