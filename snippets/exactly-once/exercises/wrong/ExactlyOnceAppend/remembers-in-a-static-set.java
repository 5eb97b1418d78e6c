// Wrong: no transactions at all; the sink keeps the orders it has appended in a set held by a static field, and a
// Wrong: replay skips them. A crash ends the process, and the set, reachable only from that static, with it.
// Fails: crash after o4, checkpoints every 2 | duplicate write of o3 after replay from offset 2
// Fails: crash after o4, checkpoints every 2 | a crash ends the process: your classes were loaded afresh after it, so their static fields (AppendSink.APPENDED) started over. A crash keeps only what lives outside your objects and what the job restores from its checkpoint
import java.util.*;

class AppendSink implements CheckpointedSink {
    private static final Map<Table, Set<String>> APPENDED = new IdentityHashMap<Table, Set<String>>();
    private final Table table;

    AppendSink(Table table) {
        this.table = table;
    }

    public void write(String key, int amount) {
        Set<String> appended = APPENDED.get(table);
        if (appended == null) {
            appended = new HashSet<String>();
            APPENDED.put(table, appended);
        }
        if (appended.add(key)) table.append(null, key, amount);
    }

    public String snapshot(long checkpointId) { return ""; }

    public void checkpointComplete(long checkpointId) {}

    public void recover(String state) {}
}
