// Wrong: the right TTL, but the seen-set is held by a static field instead of the checkpoint. A crash ends the
// Wrong: process and the set with it, so a retry after the crash gets through.
// Fails: crash after e2, then a retry of e1 at t=299, the last second a retry can come | duplicate of e1 accepted at t=299 (a retry 299 s after the first send) after the crash
// Fails: crash after e2, then a retry of e1 at t=299, the last second a retry can come | a crash ends the process: your classes were loaded afresh after it, so their static fields (Deduper.SEEN_AT) started over. A crash keeps only what lives outside your objects and what the job restores from its checkpoint
import java.util.*;

class Deduper implements EventDeduper {
    static final long TTL_SECONDS = 300;
    private static final Map<String, Long> SEEN_AT = new HashMap<String, Long>();

    public boolean accept(String id, long at) {
        SEEN_AT.values().removeIf(seen -> at - seen.longValue() >= TTL_SECONDS);
        if (SEEN_AT.containsKey(id)) return false;
        SEEN_AT.put(id, Long.valueOf(at));
        return true;
    }

    public int size() {
        return SEEN_AT.size();
    }

    public Map<String, Long> snapshot() {
        return new HashMap<String, Long>();
    }

    public void restore(Map<String, Long> state) {
    }
}
