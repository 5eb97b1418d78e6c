// Wrong: a key per payment, kept for its retries and replays in a map that a static field holds. A crash ends the
// Wrong: process and the map with it, so a replay numbers the keys again and the gateway charges the payment twice.
// Fails: crash after p3, replay from the checkpoint | payment p3 charged twice
// Fails: crash after p3, replay from the checkpoint | a crash ends the process: your classes were loaded afresh after it, so their static fields (PaymentStep.KEYS) started over. A crash keeps only what lives outside your objects and what the job restores from its checkpoint
import java.util.*;

class PaymentStep implements PaymentProcessor {
    private static final Map<Gateway, Map<String, String>> KEYS = new IdentityHashMap<Gateway, Map<String, String>>();
    private final Gateway gateway;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        Map<String, String> keys = KEYS.get(gateway);
        if (keys == null) {
            keys = new HashMap<String, String>();
            KEYS.put(gateway, keys);
        }
        String key = keys.get(payment);
        if (key == null) {
            key = payment + "#" + (keys.size() + 1);
            keys.put(payment, key);
        }
        gateway.charge(key, payment, amount);
    }
}
