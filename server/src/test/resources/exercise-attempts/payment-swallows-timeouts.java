/** A wrong fix: a stable key, but a timeout is swallowed, so a lost request is never retried. */
class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        try {
            gateway.charge(payment, payment, amount);
        } catch (GatewayTimeout e) {
            // assume it went through
        }
    }
}
