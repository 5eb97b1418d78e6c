// Id: idempotent-payment
// Title: Make the payment call idempotent
// Summary: A job charges payments p1..p4 through a card gateway. When the gateway's answer is lost, the job
// Summary: calls your step again; after a crash it replays the payments since the last checkpoint with a new
// Summary: step. As written, every call uses a fresh idempotency key, so a retried or replayed payment is charged
// Summary: twice. Make every payment charged exactly once, however often the job calls you.
import java.util.*;

// The instructions above the editor say what you are given and how the job calls you.
class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;
    private int requests = 0;

    PaymentStep(Gateway gateway) {
        this.gateway = gateway;
    }

    public void process(String payment, int amount) {
        requests++;
        String key = payment + "/" + requests; // a new key for every call: the gateway cannot spot a retry
        gateway.charge(key, payment, amount);
    }
}
