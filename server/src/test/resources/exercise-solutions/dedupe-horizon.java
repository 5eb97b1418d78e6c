import java.util.*;

/** Reference solution: remember ids for the whole retry horizon, and keep the seen-set in the checkpoint. */
class Deduper {
    static final long RETRY_HORIZON_SECONDS = 300;
    static final long TTL_SECONDS = RETRY_HORIZON_SECONDS;
    private final Map<String, Long> seenAt = new HashMap<String, Long>();

    boolean accept(String id, long at) {
        expire(at);
        if (seenAt.containsKey(id)) return false;
        seenAt.put(id, Long.valueOf(at));
        return true;
    }

    private void expire(long now) {
        Iterator<Map.Entry<String, Long>> it = seenAt.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Long> entry = (Map.Entry<String, Long>) it.next();
            if (now - ((Long) entry.getValue()).longValue() > TTL_SECONDS) it.remove();
        }
    }

    int size() {
        return seenAt.size();
    }

    Map<String, Long> snapshot() {
        return new HashMap<String, Long>(seenAt);
    }

    void restore(Map<String, Long> state) {
        if (state != null) seenAt.putAll(state);
    }
}
