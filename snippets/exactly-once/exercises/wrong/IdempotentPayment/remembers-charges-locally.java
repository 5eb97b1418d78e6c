// Wrong: remembers in the step which payments it charged, with a fresh key per call: a lost answer leaves the
// Wrong: payment unmarked, so the retry charges it again, and a replay's new step remembers nothing.
// Fails: the answer to p2 is lost after the charge | payment p2 charged twice
// Fails: crash after p3, replay from the checkpoint | payment p3 charged twice
import java.util.*;

class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;
    private final Set<String> done = new HashSet<String>();
    private int calls = 0;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        if (done.contains(payment)) return;
        calls++;
        gateway.charge(payment + "#" + calls, payment, amount);
        done.add(payment);
    }
}
