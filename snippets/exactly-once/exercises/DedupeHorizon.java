// Id: dedupe-horizon
// Title: Make the dedupe survive a retry horizon
// Summary: A producer retries an event for up to 300 seconds after its first send. The deduper drops ids it has
// Summary: seen, but it forgets them after 60 seconds, so a retry at 90 s gets through a second time; and its
// Summary: seen-set is lost in a crash. Keep every event exactly once within the retry horizon, across a crash,
// Summary: and still forget ids once no retry can come: the seen-set must not grow forever.
import java.util.*;

/*
 * The job knows the deduper only as an EventDeduper (the exercise provides that interface: keep "implements
 * EventDeduper" and its public methods). It calls accept(id, at) for every delivery in time order (at: seconds).
 * Return true to pass the event on, false to drop it as a duplicate. A producer retries an event at most
 * RETRY_HORIZON_SECONDS after its first send.
 *
 * After every delivery the job takes a checkpoint: it calls snapshot() and keeps a copy of the map returned.
 * After a crash it builds a NEW Deduper and calls restore(...) with the last snapshot.
 */
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
