// Wrong: one transaction, but the inbox is keyed by the copy's offset. A redelivery of one offset is caught; the
// Wrong: relay's second copy of an event sits at a new offset, so it gets a row of its own and a second charge.
// Fails: the relay crashed after publishing e2 and e3 and publishes them again, at offsets 3 and 4 | order o2 charged twice: its copies were recorded in the inbox under ids of their own (1, 3), not under the event id e2 they all carry
class PaymentConsumer implements MessageHandler {
    static final long REDELIVERY_HORIZON_SECONDS = 600;
    private final Database db;

    PaymentConsumer(Database db) {
        this.db = db;
    }

    public void handle(Message message) {
        String id = String.valueOf(message.offset());
        db.inTransaction(tx -> {
            tx.inbox().deleteReceivedBefore(tx.now() - REDELIVERY_HORIZON_SECONDS);
            if (tx.inbox().contains(id)) return;
            tx.inbox().insert(id);
            tx.charges().insert(message.order(), message.amount());
        });
    }
}
