// Wrong: append at once, and on recovery delete every order so that the replay can write it again: the orders
// Wrong: before the checkpoint are not replayed, and readers had already read what was deleted.
// Fails: crash after o4, checkpoints every 2 | record o1 lost
// Fails: crash after o4, checkpoints every 2 | a visible row of o3 was deleted: a reader may already have read it
import java.util.*;

class AppendSink implements CheckpointedSink {
    private final Table table;

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) { table.append(null, key, amount); }

    public String snapshot(long checkpointId) { return ""; }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {
        for (int i = 1; i <= 5; i++) table.delete("o" + i);
    }
}
