// Id: dedupe-horizon
// Title: Make the dedupe survive a retry horizon
// Summary: A producer retries an event for up to 300 seconds after its first send. The deduper drops ids it has
// Summary: seen, but it forgets them after 60 seconds, so a retry at 90 s gets through a second time; and its
// Summary: seen-set is lost in a crash. Keep every event exactly once within the retry horizon, across a crash,
// Summary: and still forget ids in the end: a TTL from the horizon up to twice the horizon passes.
import java.util.*;

// The instructions above the editor say what you are given and how the job calls you.
class Deduper implements EventDeduper {
    static final long RETRY_HORIZON_SECONDS = 300;
    static final long TTL_SECONDS = 60;
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

    /** How many ids the seen-set holds now. */
    public int size() {
        return seenAt.size();
    }

    public Map<String, Long> snapshot() {
        return new HashMap<String, Long>(); // nothing survives a crash
    }

    public void restore(Map<String, Long> state) {
    }
}
