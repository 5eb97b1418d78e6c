// Wrong: no transaction at all; each write deletes the key's rows first, so a replay leaves one row per order,
// Wrong: but a reader may have read the row that the replay deletes.
// Fails: crash after o4, checkpoints every 2 | a visible row of o3 was deleted: a reader may already have read it
// Fails: crash after o4, checkpoints every 2 | a visible row of o4 was deleted: a reader may already have read it
import java.util.*;

class AppendSink implements CheckpointedSink {
    private final Table table;

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        table.delete(key);
        table.append(null, key, amount);
    }

    public String snapshot(long checkpointId) { return ""; }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {}
}
