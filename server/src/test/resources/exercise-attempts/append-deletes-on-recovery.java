import java.util.*;

/** A wrong fix: append at once, and on recovery delete what came after the checkpoint. */
class AppendSink implements CheckpointedSink {
    private final Table table;
    private final List<String> sinceCheckpoint = new ArrayList<String>();

    AppendSink(Table table) { this.table = table; }

    public void write(String key, int amount) {
        table.append(null, key, amount);
        sinceCheckpoint.add(key);
    }

    public String snapshot(long checkpointId) {
        sinceCheckpoint.clear();
        return "";
    }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {
        for (int i = 1; i <= 5; i++) table.delete("o" + i); // take back what was written, so the replay can write it again
    }
}
