// Wrong: never expires anything and checkpoints the set: exact, but the seen-set grows forever.
// Fails: 100 events at t=0..99, then one at t=699, when even the longest allowed TTL is over | the seen-set still holds 101 ids at t=699: it keeps ids for more than twice their retry horizon
import java.util.*;

class Deduper implements EventDeduper {
    static final long RETRY_HORIZON_SECONDS = 300;
    static final long TTL_SECONDS = RETRY_HORIZON_SECONDS;
    private final Map<String, Long> seenAt = new HashMap<String, Long>();

    public boolean accept(String id, long at) {
        if (seenAt.containsKey(id)) return false;
        seenAt.put(id, Long.valueOf(at));
        return true;
    }

    private void expire(long now) {
        Iterator<Map.Entry<String, Long>> it = seenAt.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Long> entry = (Map.Entry<String, Long>) it.next();
            if (now - ((Long) entry.getValue()).longValue() >= TTL_SECONDS) it.remove();
        }
    }

    public int size() {
        return seenAt.size();
    }

    public Map<String, Long> snapshot() {
        return new HashMap<String, Long>(seenAt);
    }

    public void restore(Map<String, Long> state) {
        if (state != null) seenAt.putAll(state);
    }
}
