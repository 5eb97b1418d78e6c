// Wrong: one transaction, keyed by the event id, but rows are pruned after 300 s while a copy can still come 600 s
// Wrong: after the first: a late copy finds no row and is charged again.
// Fails: a copy of e1 comes 600 s after e1 was handled, the last second a copy can come | order o1 charged twice: its inbox row was pruned at t=450, when it was 450 s old, and a copy came at t=600, within the 600 s redelivery horizon
class PaymentConsumer implements MessageHandler {
    static final long INBOX_TTL_SECONDS = 300;
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        db.inTransaction(tx -> {
            tx.inbox().deleteReceivedBefore(tx.now() - INBOX_TTL_SECONDS);
            if (tx.inbox().contains(message.eventId())) return;
            tx.inbox().insert(message.eventId());
            tx.charges().insert(message.order(), message.amount());
        });
    }
}
