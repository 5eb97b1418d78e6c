// Wrong: a stable key, but a timeout is swallowed, so a request that was lost is never sent again.
// Fails: the request for p3 is lost before the charge | payment p3 never charged
class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        try {
            gateway.charge(payment + ":charge", payment, amount);
        } catch (GatewayTimeout e) {
            // assumes the charge went through
        }
    }
}
