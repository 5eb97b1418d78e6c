import java.util.*;

/** Reference solution: the payment id is the idempotency key, the same on every retry and every replay. */
class PaymentStep {
    private final Gateway gateway;

    PaymentStep(Gateway gateway) {
        this.gateway = gateway;
    }

    void process(String payment, int amount) {
        gateway.charge(payment, payment, amount);
    }
}
