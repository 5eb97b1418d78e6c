// Id: idempotent-payment
// Title: Make the payment call idempotent
// Summary: A job charges payments p1..p4 through a card gateway. When the gateway's answer is lost, the job
// Summary: calls your step again; after a crash it replays the payments since the last checkpoint with a new
// Summary: step. As written, every call uses a fresh idempotency key, so a retried or replayed payment is charged
// Summary: twice. Make every payment charged exactly once, however often the job calls you.
import java.util.*;

/*
 * The gateway (the exercise provides it) is outside the job and survives crashes:
 *   String charge(String idempotencyKey, String payment, int amount)
 *       charges the card and returns a receipt. A key the gateway has seen before returns the first receipt
 *       and charges nothing. It may throw GatewayTimeout: the answer was lost, and the charge may or may not
 *       have happened.
 *
 * The job knows your step only as a PaymentProcessor (provided too: keep "implements PaymentProcessor" and the
 * public method). It calls process(payment, amount) once per payment. If it throws GatewayTimeout the job calls
 * it again (up to 3 times). After a crash the job builds a NEW PaymentStep and replays the payments after the
 * last checkpoint.
 */
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
