// Wrong: the starter's key, new on every call: the gateway cannot tell a retry from a new payment. A replay from
// Wrong: offset 0 happens to rebuild the same keys, since the count starts again; a replay from offset 2 does not.
// Fails: the answer to p2 is lost after the charge | payment p2 charged twice
// Fails: crash after p4, replay from the checkpoint | payment p3 charged twice
class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;
    private int requests = 0;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        requests++;
        gateway.charge(payment + "/" + requests, payment, amount);
    }
}
