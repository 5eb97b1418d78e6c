import java.util.*;

/** A wrong fix: never expire, and checkpoint the set: exact, but the seen-set grows forever. */
class Deduper implements EventDeduper {
    static final long RETRY_HORIZON_SECONDS = 300;
    private final Map<String, Long> seenAt = new HashMap<String, Long>();

    public boolean accept(String id, long at) {
        if (seenAt.containsKey(id)) return false;
        seenAt.put(id, Long.valueOf(at));
        return true;
    }

    public int size() { return seenAt.size(); }

    public Map<String, Long> snapshot() { return new HashMap<String, Long>(seenAt); }

    public void restore(Map<String, Long> state) { seenAt.putAll(state); }
}
