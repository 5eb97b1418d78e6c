// Wrong: no transactions at all; the sink counts in static fields the orders it has appended to the table, and a
// Wrong: replay skips them. A crash ends the process and its static fields with it, so the replay appends again.
// Fails: crash after o4, checkpoints every 2 | duplicate write of o3 after replay from offset 2
// Fails: crash after o4, checkpoints every 2 | a crash ends the process: your classes were loaded afresh after it, so their static fields (AppendSink.appended, AppendSink.lastTable) started over. A crash keeps only what lives outside your objects and what the job restores from its checkpoint
import java.util.*;

class AppendSink implements CheckpointedSink {
    private static Table lastTable;   // the table this process last wrote to
    private static int appended;      // how many orders it has appended to it
    private final Table table;

    AppendSink(Table table) {
        this.table = table;
        if (table != lastTable) {
            lastTable = table;
            appended = 0;
        }
    }

    public void write(String key, int amount) {
        int order = Integer.parseInt(key.substring(1));
        if (order <= appended) return; // a replay: appended before
        table.append(null, key, amount);
        appended = order;
    }

    public String snapshot(long checkpointId) { return ""; }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {}
}
