// Wrong: the key counts the payments this step has charged, so it survives a retry; but a replay starts a new
// Wrong: step whose count starts again, and p3 then reuses p1's key and is never charged.
// Fails: crash after p3, replay from the checkpoint | payment p4 never charged
class PaymentStep implements PaymentProcessor {
    private final Gateway gateway;
    private int charged = 0;

    PaymentStep(Gateway gateway) { this.gateway = gateway; }

    public void process(String payment, int amount) {
        gateway.charge("charge-" + (charged + 1), payment, amount);
        charged++;
    }
}
