// Wrong: the TTL is one second shorter than the horizon, so a retry in the horizon's last second gets through.
// Fails: e1 retried 299 s after its first send, the last second a retry can come | duplicate of e1 accepted at t=299 (a retry 299 s after the first send)
import java.util.*;

class Deduper implements EventDeduper {
    static final long RETRY_HORIZON_SECONDS = 300;
    static final long TTL_SECONDS = RETRY_HORIZON_SECONDS - 1;
    private final Map<String, Long> seenAt = new HashMap<String, Long>();

    public boolean accept(String id, long at) {
        expire(at);
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
